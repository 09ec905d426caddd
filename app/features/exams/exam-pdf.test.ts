import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { embeddedFonts } from '#app/platform/pdf.server.ts'
import { examPdfFileName, examPrintData, printedDocuments, renderExamPdf, renderExamSvg, type ExamPrintOptions } from './exam-pdf.server.ts'
import { examSchema } from './schemas.ts'
import type { ExamRecord } from './store.server.ts'
import { examRecordOf, sampleExam, sampleExamBody } from '#tests/exams.ts'

// poppler reads the PDF from standard input; its direction marks are dropped, the words kept.
const pdftotext = (pdf: Uint8Array, page?: number) =>
  execFileSync('/usr/bin/pdftotext', ['-layout', ...(page ? ['-f', String(page), '-l', String(page)] : []), '-', '-'], { input: pdf })
    .toString('utf8')
    .replace(/[\u202A-\u202E]/g, '')
const pageCount = (pdf: Uint8Array) =>
  Number(/Pages:\s+(\d+)/.exec(execFileSync('/usr/bin/pdfinfo', ['-'], { input: pdf }).toString('utf8'))?.[1])
const pages = (pdf: Uint8Array) => Array.from({ length: pageCount(pdf) }, (_, i) => pdftotext(pdf, i + 1))

const record = examRecordOf

const noImages: ExamPrintOptions['images'] = new Map()
const arabic = record(sampleExam())
const english = record(
  examSchema.parse({
    title: 'Science mid-term test',
    school_name: 'Al-Andalus Primary School',
    subject: 'Science',
    grade: 'Grade 5',
    date: '2026-11-22',
    duration_minutes: 45,
    info: 'Answer all the questions.',
    show_student_name: true,
    questions: [
      {
        type: 'multiple_choice',
        text: 'Which planet is closest to the Sun?',
        marks: 1,
        options: ['Mercury', 'Venus', 'Earth', 'Mars'],
        correct: 0,
      },
      { type: 'checkbox', text: 'Choose the mammals:', marks: 2, options: ['Whale', 'Eagle', 'Camel', 'Turtle'], correct: [0, 2] },
      { type: 'true_false', text: 'Water boils at 100 °C at sea level.', marks: 1, correct: true },
      { type: 'essay', text: 'Explain the water cycle.', marks: 4, lines: 5 },
      {
        type: 'matching',
        text: 'Match each organ with its job:',
        marks: 3,
        pairs: [
          { left: 'Heart', right: 'Pumps blood' },
          { left: 'Lungs', right: 'Exchange gases' },
          { left: 'Stomach', right: 'Digests food' },
        ],
      },
      {
        type: 'fill_blank',
        text: 'The capital of Saudi Arabia is ___ and its largest port is ___.',
        marks: 2.5,
        answers: ['Riyadh', 'Jeddah'],
      },
    ],
  }),
)

/** Thirty questions of every type, with long essays among them, as a full term test might be. */
function thirtyQuestions(title = 'اختبار نهاية الفصل'): ExamRecord {
  const types = sampleExam().questions
  const questions = Array.from({ length: 30 }, (_, i) => {
    const q = types[i % types.length]!
    // Latin markers that extraction keeps whole inside Arabic lines: Q7Z for question 7's text, O7-3Z for its fourth answer.
    const text = `${q.text} Q${i + 1}Z`
    if (q.type === 'essay') return { ...q, text, lines: 8 }
    if (q.type === 'multiple_choice') return { ...q, text, options: q.options.map((o, k) => `${o} O${i + 1}-${k}Z`) }
    return { ...q, text }
  })
  return record(examSchema.parse({ ...sampleExam(), title, questions }))
}

describe('the printed test', () => {
  it('prints the ministry header, the header fields, the name line and every question in Arabic, joined and right to left', () => {
    const pdf = renderExamPdf(arabic, { lang: 'ar', answers: false, versions: null, images: noImages })
    const text = pdftotext(pdf)
    for (const words of [
      'المملكة العربية السعودية',
      'وزارة التعليم',
      'مدرسة الأندلس الابتدائية',
      'اختبار منتصف الفصل',
      'الدراسي الأول',
      'العلوم',
      'الصف الخامس',
      'نوفمبر 2026',
      'جمادى الآخرة',
      'اسم الطالب:',
      'الفصل:',
      'أجب عن جميع الأسئلة الآتية.',
      'أي الكواكب أقرب إلى الشمس؟',
      'عطارد',
      'اختر الثدييات:',
      'اشرح دورة الماء في الطبيعة.',
      'صل كل عضو بوظيفته:',
      'العمود (أ)',
      'العمود (ب)',
      'تبادل الغازات',
      'عاصمة المملكة العربية السعودية هي',
      'درجتان',
      'درجة واحدة',
      'صح',
      'خطأ',
    ])
      expect(text).toContain(words)
    // Poppler drops the space between a figure and an Arabic word; the page has it.
    expect(text).toMatch(/45\s*دقيقة/)
    expect(text).toMatch(/الدرجة الكلية\s*13\s*:?\s*درجة/)
    // The answer letters, and nothing of the key.
    expect(text).toMatch(/أ\s+عطارد|عطارد\s+أ/)
    expect(text).not.toContain('نموذج الإجابة')
    expect(text).not.toContain('الرياض')
    // Two pages: the header's rows, each as tall as its lines, leave the matching question no room on the first.
    expect(text).toMatch(/صفحة\s*1\s*من\s*2/)
    expect(text).toMatch(/صفحة\s*2\s*من\s*2/)
    expect(text).not.toMatch(/[\u0660-\u0669]/)
  })

  it('prints in English with the letters A to D and its own words', () => {
    const text = pdftotext(renderExamPdf(english, { lang: 'en', answers: false, versions: null, images: noImages }))
    for (const words of [
      'Kingdom of Saudi Arabia',
      'Ministry of Education',
      'Al-Andalus Primary School',
      'Science mid-term test',
      'Subject:',
      'Grade 5',
      '22 November 2026',
      '1448 AH',
      '45 minutes',
      '13.5 marks',
      "Student's name:",
      'Class:',
      'Which planet is closest to the Sun?',
      'Column A',
      'Column B',
      '1 mark',
      '2.5 marks',
      'True',
      'False',
      'Page 1 of 1',
    ])
      expect(text).toContain(words)
    expect(text).toMatch(/A\s+Mercury\s+B\s+Venus\s+C\s+Earth\s+D\s+Mars/)
    expect(text).toMatch(/The capital of Saudi Arabia is\s+and its largest port is\s*\./)
  })

  it('leaves the name line out when the teacher asks', () => {
    const text = pdftotext(
      renderExamPdf({ ...english, showStudentName: false }, { lang: 'en', answers: false, versions: null, images: noImages }),
    )
    expect(text).not.toContain("Student's name")
  })

  it('prints the teacher’s text literally, typst syntax and all', () => {
    const evil = String.raw`#"evil" [x] *b* _i_ $m$ \\ @ref <l> // #panic("no")`
    const title = String.raw`#"t" [x] $m$ <l>`
    const exam = { ...english, title, info: evil, questions: [{ type: 'essay' as const, text: evil, marks: 1, image: null, lines: 1 }] }
    const text = pdftotext(renderExamPdf(exam, { lang: 'en', answers: false, versions: null, images: noImages }))
    expect(text).toContain(title)
    expect(text.split(evil).length - 1).toBe(2)
  })

  it('embeds the shipped fonts only', () => {
    const pdf = renderExamPdf(arabic, { lang: 'ar', answers: true, versions: null, images: noImages })
    expect(embeddedFonts(pdf).every((name) => /^(Amiri|IBMPlexSansArabic)-/.test(name))).toBe(true)
  })

  it('keeps each question on one page when it fits on one, and still prints one taller than a page', () => {
    const pdf = renderExamPdf(thirtyQuestions(), { lang: 'ar', answers: false, versions: null, images: noImages })
    const texts = pages(pdf)
    expect(texts.length).toBeGreaterThan(3)
    for (let i = 1; i <= 30; i++) {
      const q = thirtyQuestions().questions[i - 1]!
      if (q.type !== 'multiple_choice') continue
      // The question's text and its last answer are on the same page.
      const page = texts.findIndex((t) => t.includes(`Q${i}Z`))
      expect({ i, last: texts[page]?.includes(`O${i}-3Z`) }).toEqual({ i, last: true })
    }
    const tall = {
      ...english,
      questions: [
        { type: 'essay' as const, text: 'Write an essay.', marks: 10, image: null, lines: 30 },
        { type: 'essay' as const, text: 'And another.', marks: 10, image: null, lines: 30 },
      ],
    }
    const tallText = pages(renderExamPdf(tall, { lang: 'en', answers: false, versions: null, images: noImages }))
    expect(tallText.join('\f')).toContain('And another.')
  })

  it('scales an image to fit and embeds it', async () => {
    const imageId = '1b4e28ba-2fa1-11d2-883f-0016d3cca427'
    const png = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#e0a526' } })
      .png()
      .toBuffer()
    const exam = { ...english, questions: english.questions.map((q, i) => (i === 3 ? { ...q, image: imageId } : q)) }
    const images = new Map([[imageId, { contentType: 'image/png' as const, width: 3000, height: 1000, data: png }]])
    const data = examPrintData(exam, { lang: 'en', answers: false, versions: null, images }).data
    // 3000 px at 150 dpi is 508 mm: scaled down to the 120 mm the column allows.
    expect(data.documents[0]?.questions[3]?.image).toEqual({ path: `/images/${imageId}.png`, widthMm: 120, heightMm: 40 })
    const dir = mkdtempSync(path.join(tmpdir(), 'hallil-exam-'))
    try {
      writeFileSync(path.join(dir, 'exam.pdf'), renderExamPdf(exam, { lang: 'en', answers: false, versions: null, images }))
      expect(execFileSync('/usr/bin/pdfimages', ['-list', path.join(dir, 'exam.pdf')]).toString('utf8')).toMatch(
        /\b3000\s+1000\s+(rgb|icc)\b/,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    // An image the store no longer has is left out, and the test still prints.
    expect(pdftotext(renderExamPdf(exam, { lang: 'en', answers: false, versions: null, images: noImages }))).toContain(
      'Explain the water cycle.',
    )
  })
})

describe('the answer key', () => {
  it('fills in the blanks, the matching numbers, and names the essay as marked by the teacher', () => {
    const text = pdftotext(renderExamPdf(arabic, { lang: 'ar', answers: true, versions: null, images: noImages }))
    expect(text).toContain('نموذج الإجابة')
    expect(text).toContain('الرياض')
    expect(text).toContain('جدة')
    expect(text).toContain('إجابة مقالية')
    const en = pdftotext(renderExamPdf(english, { lang: 'en', answers: true, versions: null, images: noImages }))
    expect(en).toContain('Answer key')
    expect(en).toMatch(/The capital of Saudi Arabia is\s+Riyadh\s+and its largest port is\s+Jeddah\s*\./)
    expect(en).toContain('Essay answer: marked by the teacher.')
  })

  it('marks exactly the correct answers (in the data the page draws)', () => {
    const { data } = examPrintData(english, { lang: 'en', answers: true, versions: null, images: noImages })
    const [mc, cb, tf, , matching] = data.documents[0]!.questions as Array<Record<string, unknown>>
    const ticks = (q: Record<string, unknown> | undefined) => ((q?.options ?? []) as Array<{ isCorrect: boolean }>).map((o) => o.isCorrect)
    expect(ticks(mc)).toEqual([true, false, false, false])
    expect(ticks(cb)).toEqual([true, false, true, false])
    expect(tf?.answer).toBe(true)
    // Each first-column item's box holds the number its match has in the shuffled second column.
    const left = matching?.left as Array<{ text: string; answer: string }>
    const right = matching?.right as Array<{ number: string; text: string }>
    const pairs = Object.fromEntries(left.map((l) => [l.text, right.find((r) => r.number === l.answer)?.text]))
    expect(pairs).toEqual({ Heart: 'Pumps blood', Lungs: 'Exchange gases', Stomach: 'Digests food' })
    const test = examPrintData(english, { lang: 'en', answers: false, versions: null, images: noImages }).data
    expect(JSON.stringify(test.documents[0])).not.toMatch(/"isCorrect":true|"answer":(true|false|"\d")/)
  })
})

describe('versions', () => {
  it('prints each version and then its key, in one PDF, with their letters and their own page numbers', () => {
    const pdf = renderExamPdf(arabic, { lang: 'ar', answers: false, versions: 2, images: noImages })
    const texts = pages(pdf)
    const documents = texts.map(
      (t) => `${t.includes('النموذج (أ)') ? 'أ' : t.includes('النموذج (ب)') ? 'ب' : '?'}${t.includes('نموذج الإجابة') ? ' key' : ''}`,
    )
    // Every document starts on a new page with the header; the pages after its first belong to it.
    expect(documents.filter((d) => d !== '?')).toEqual(['أ', 'أ key', 'ب', 'ب key'])
    expect(texts.filter((t) => /صفحة\s*1\s*من/.test(t))).toHaveLength(4)
  })

  it('prints the questions in each version’s shuffled order, and each key follows its version', () => {
    const docs = printedDocuments(english, { answers: false, versions: 2 })
    expect(docs.map((d) => [d.version.label, d.isKey])).toEqual([
      ['A', false],
      ['A', true],
      ['B', false],
      ['B', true],
    ])
    const pdf = renderExamPdf(english, { lang: 'en', answers: false, versions: 2, images: noImages })
    const text = pdftotext(pdf)
    const firstLines = docs.filter((d) => !d.isKey).map((d) => d.version.questions.map((q) => q.text.slice(0, 18)))
    expect(firstLines[0]).not.toEqual(firstLines[1])
    // In the text of each version, its questions appear in its own order.
    const versionText = text.split(/Version B/)
    for (const [i, part] of [versionText[0] ?? '', versionText.slice(1).join('')].entries()) {
      const positions = (firstLines[i] ?? []).map((line) => part.indexOf(line))
      expect(positions.every((p) => p >= 0)).toBe(true)
      expect(positions).toEqual(positions.toSorted((a, b) => a - b))
    }
    // The multiple-choice key of version B is the letter where Mercury now stands.
    const b = docs[3]!.version.questions.find((q) => q.type === 'multiple_choice')
    if (b?.type !== 'multiple_choice') throw new Error('expected a multiple-choice question')
    expect(b.options[b.correct]).toBe('Mercury')
  })

  it('prints the same versions for the same seed, others for another', () => {
    const text = (seed?: string) => pdftotext(renderExamPdf(english, { lang: 'en', answers: false, versions: 2, seed, images: noImages }))
    expect(text()).toBe(text())
    expect(text('term-2')).toBe(text('term-2'))
    expect(text('term-2')).not.toBe(text())
  })
})

describe('the print preview and the file', () => {
  it('draws the same pages as SVG', () => {
    const pdf = renderExamPdf(arabic, { lang: 'ar', answers: false, versions: 2, images: noImages })
    const { svg, pages: count } = renderExamSvg(arabic, { lang: 'ar', answers: false, versions: 2, images: noImages })
    expect(count).toBe(pageCount(pdf))
    expect(svg.startsWith('<svg')).toBe(true)
  })

  it('names the file after the test and what it holds', () => {
    expect(examPdfFileName({ title: 'اختبار / العلوم: "الأول"' }, { answers: true, versions: null }, 'ar')).toBe(
      'اختبار العلوم الأول - نموذج الإجابة.pdf',
    )
    expect(examPdfFileName({ title: 'Science' }, { answers: false, versions: 3 }, 'en')).toBe('Science - 3 versions with keys.pdf')
    expect(examPdfFileName({ title: '' }, { answers: false, versions: null }, 'en')).toBe('exam.pdf')
  })

  it('wraps words of 300 letters without a space, Arabic or Latin, and long URLs inside the page', () => {
    const latin = 'x'.repeat(300)
    const arabicRun = 'بسم'.repeat(100)
    const url = `https://example.com/${'path/segment-'.repeat(25)}end`
    const exam = record(
      examSchema.parse({
        ...sampleExamBody(),
        title: `Title ${latin.slice(0, 150)}`,
        info: `See ${url}`,
        questions: [
          { type: 'essay', text: `Latin ${latin} end`, marks: 1, lines: 1 },
          { type: 'essay', text: `عربي ${arabicRun} نهاية`, marks: 1, lines: 1 },
          { type: 'multiple_choice', text: 'Options', marks: 1, options: [latin, arabicRun, url, 'd'], correct: 0 },
          {
            type: 'matching',
            text: 'Pairs',
            marks: 1,
            pairs: [
              { left: latin, right: arabicRun },
              { left: url, right: 'b' },
            ],
          },
          { type: 'fill_blank', text: `${latin} ___ ${arabicRun}`, marks: 1, answers: [latin.slice(0, 200)] },
        ],
      }),
    )
    for (const lang of ['ar', 'en'] as const) {
      const pdf = renderExamPdf(exam, { lang, answers: true, versions: null, images: noImages })
      const html = execFileSync('/usr/bin/pdftotext', ['-bbox', '-', '-'], { input: pdf }).toString('utf8')
      const pageWidth = Number(/<page width="([\d.]+)"/.exec(html)?.[1])
      const words = [...html.matchAll(/<word xMin="([\d.-]+)" yMin="[\d.-]+" xMax="([\d.-]+)"/g)].map(
        (m) => [Number(m[1]), Number(m[2])] as const,
      )
      expect(pageWidth).toBeGreaterThan(500)
      expect(words.length).toBeGreaterThan(50)
      const outside = words.filter(([xMin, xMax]) => xMin < 0 || xMax > pageWidth)
      expect(outside, `${lang}: words past the page's edge`).toEqual([])
    }
  })
})
