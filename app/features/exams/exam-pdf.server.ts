import type { Lang } from '#app/i18n/config.ts'
import { formatDate, formatNumber } from '#app/i18n/format.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator, lookup } from '#app/i18n/translate.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import type { FileStore } from '#app/platform/files.server.ts'
import { DomainError } from '#app/lib/errors.ts'
import { PdfRenderLimitError, renderOffThread } from '#app/platform/pdf-pool.server.ts'
import { renderPdf, renderSvg } from '#app/platform/pdf.server.ts'
import { readExamImages, type ExamImageFile } from './images.server.ts'
import { EXAM_LIMITS, splitBlanks } from './schemas.ts'
import { printedTest, printedVersions, type PrintedQuestion, type PrintedVersion } from './shuffle.ts'
import type { ExamRecord } from './store.server.ts'

// The printed test: A4, the ministry's header block, the questions numbered with their marks,
// and the same pages with the answers filled in (the key). Versions print each shuffled copy
// followed by its key, all in one file. The layout lives in the typst template below; every
// word and every piece of the teacher's text arrives through sys.inputs as JSON, so nothing a
// teacher types is ever read as typst markup.

export type ExamPrintKind = { answers: boolean; versions: number | null; seed?: string }

export type ExamPrintOptions = ExamPrintKind & {
  lang: Lang
  /** The test's images by id, already read from the file store. */
  images: ReadonlyMap<string, Pick<ExamImageFile, 'contentType' | 'width' | 'height' | 'data'>>
}

type Words = (key: string, vars?: Record<string, string | number>) => string
const wordsCache: Partial<Record<Lang, { t: Words; letters: (key: string) => string[] }>> = {}

function wordsFor(lang: Lang) {
  const cached = wordsCache[lang]
  if (cached) return cached
  // common.errors: a print refused for a reason of the platform's (the file store down) says so.
  const messages = getMessages(lang, ['exams', 'common.errors'])
  const { t } = createTranslator(lang, messages)
  // A missing key would print its name on a test handed to a class: fail instead.
  const checked: Words = (key, vars) => {
    if (lookup(messages, key) === undefined) throw new Error(`Missing ${lang} message ${key}`)
    return t(key, vars)
  }
  const letters = (key: string) => lookup(messages, key) as string[]
  return (wordsCache[lang] = { t: checked, letters })
}

/**
 * The day of the test as printed, on one line: the Gregorian date and then the Umm al-Qura one,
 * each with its era (`12 أكتوبر 2025م — 20 ربيع الآخر 1447هـ`, `12 October 2025 — 20 Rabiʻ II 1447 AH`).
 */
function printedDate(lang: Lang, day: string | null) {
  if (!day) return null
  // Noon UTC is the same calendar day in Riyadh, where formatDate reads it.
  const { gregorian, hijri } = formatDate(lang, new Date(`${day}T12:00:00Z`), { hijriEra: false })
  return wordsFor(lang).t('exams.pdf.dateLine', { gregorian, hijri })
}

/** Figures as a Saudi class reads them: Latin digits, at most two decimals (quarter marks). */
const figure = (lang: Lang, value: number) => formatNumber(lang, value, { maximumFractionDigits: 2 })

// Images print at 150 dpi at most and never wider or taller than this, centred under the question.
const IMAGE_MAX = { widthMm: 120, heightMm: 75, dpi: 150 }

function imageSize(width: number, height: number) {
  const naturalW = (width / IMAGE_MAX.dpi) * 25.4
  const naturalH = (height / IMAGE_MAX.dpi) * 25.4
  const scale = Math.min(1, IMAGE_MAX.widthMm / naturalW, IMAGE_MAX.heightMm / naturalH)
  return { widthMm: Math.round(naturalW * scale * 10) / 10, heightMm: Math.round(naturalH * scale * 10) / 10 }
}

/**
 * A generous guess at a question's height, to spare typst measuring the ones that are surely
 * shorter than half a page (measuring every question doubles the time of a 30-question test).
 * Only a question guessed taller is measured, and breaks across pages if it is taller than one.
 */
function isSurelyShort(q: PrintedQuestion, image: PrintImage | null): boolean {
  const lines = (text: string) => text.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil([...line].length / 60)), 0)
  let mm = 14 + lines(q.text) * 9 + (image ? image.heightMm + 6 : 0)
  if (q.type === 'multiple_choice' || q.type === 'checkbox') mm += q.options.reduce((sum, o) => sum + lines(o) * 10, 0)
  if (q.type === 'essay') mm += q.lines * 9
  if (q.type === 'matching') mm += 20 + q.pairs.reduce((sum, p) => sum + Math.max(lines(p.left), lines(p.right)) * 11, 0)
  if (q.type === 'true_false') mm += 12
  return mm < 120
}

/** How many options fit on one line: four short ones, two medium ones, else one per line. */
function optionColumns(options: readonly string[]): 1 | 2 | 4 {
  const longest = Math.max(...options.map((o) => [...o].length))
  if (options.length === 4 && longest <= 16) return 4
  if (longest <= 38) return 2
  return 1
}

type PrintImage = { path: string; widthMm: number; heightMm: number }

// typst breaks lines only between words, so a long run without a space (a URL, a chemical name,
// a 300-letter string) would run off the page. Such a run gets a zero-width space every few
// letters: a place to break, invisible, and (a format character) transparent to Arabic joining.
const LONG_RUN = /\S{25,}/gu
const BREAK_EVERY = 16
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** The text with break opportunities inside runs too long for a line; shorter words untouched. */
export function breakLongRuns(text: string): string {
  return text.replace(LONG_RUN, (run) => {
    const pieces = [...graphemes.segment(run)].map((g) => g.segment)
    let out = ''
    for (let i = 0; i < pieces.length; i += BREAK_EVERY) out += (i ? '\u200B' : '') + pieces.slice(i, i + BREAK_EVERY).join('')
    return out
  })
}

function questionData(q: PrintedQuestion, lang: Lang, isKey: boolean, imagePath: (id: string) => PrintImage | null) {
  const { t, letters } = wordsFor(lang)
  const optionLetters = letters('exams.pdf.optionLetters')
  const image = q.image ? imagePath(q.image) : null
  const b = breakLongRuns
  const base = {
    number: figure(lang, q.number),
    marks: t('exams.pdf.marks', { count: q.marks }),
    image,
    isShort: isSurelyShort(q, image),
    type: q.type,
  }
  switch (q.type) {
    case 'multiple_choice':
    case 'checkbox': {
      const correct = new Set(q.type === 'multiple_choice' ? [q.correct] : q.correct)
      return {
        ...base,
        text: b(q.text),
        columns: optionColumns(q.options),
        options: q.options.map((text, i) => ({
          letter: optionLetters[i] ?? String(i + 1),
          text: b(text),
          isCorrect: isKey && correct.has(i),
        })),
      }
    }
    case 'true_false':
      return { ...base, text: b(q.text), answer: isKey ? q.correct : null }
    case 'essay':
      return { ...base, text: b(q.text), lines: q.lines }
    case 'matching':
      return {
        ...base,
        text: b(q.text),
        left: q.pairs.map((p, i) => ({
          number: figure(lang, i + 1),
          text: b(p.left),
          answer: isKey ? figure(lang, q.key[i] as number) : null,
        })),
        right: q.rightOrder.map((source, i) => ({ number: figure(lang, i + 1), text: b(q.pairs[source]?.right ?? '') })),
      }
    case 'fill_blank':
      return { ...base, text: '', pieces: splitBlanks(q.text).map(b), answers: isKey ? q.answers.map(b) : q.answers.map(() => null) }
  }
}

function imageFiles(exam: ExamRecord, images: ExamPrintOptions['images']) {
  const files: Record<string, Uint8Array> = {}
  const paths = new Map<string, PrintImage>()
  for (const q of exam.questions) {
    if (!q.image || paths.has(q.image)) continue
    const image = images.get(q.image)
    if (!image) continue
    const path = `images/${q.image}.${image.contentType === 'image/png' ? 'png' : 'jpg'}`
    files[path] = image.data
    paths.set(q.image, { path: `/${path}`, ...imageSize(image.width, image.height) })
  }
  return { files, imagePath: (id: string) => paths.get(id) ?? null }
}

/** The documents one PDF holds, in print order: the test or its key, or each version and then its key. */
export function printedDocuments(exam: ExamRecord, kind: ExamPrintKind): Array<{ version: PrintedVersion; isKey: boolean }> {
  const seed = kind.seed || exam.id
  if (kind.versions)
    return printedVersions(exam.questions, seed, kind.versions).flatMap((version) => [
      { version, isKey: false },
      { version, isKey: true },
    ])
  return [{ version: printedTest(exam.questions, seed), isKey: kind.answers }]
}

/** Everything the template prints, already in words. */
export function examPrintData(exam: ExamRecord, options: ExamPrintOptions) {
  const { lang } = options
  const { t, letters } = wordsFor(lang)
  const date = printedDate(lang, exam.date)
  const versionLetters = letters('exams.pdf.versionLetters')
  const { files, imagePath } = imageFiles(exam, options.images)
  const header = {
    title: breakLongRuns(exam.title),
    school: breakLongRuns(exam.schoolName),
    fields: [
      exam.subject ? { label: t('exams.pdf.subject'), value: breakLongRuns(exam.subject), kind: 'text' } : null,
      exam.grade ? { label: t('exams.pdf.grade'), value: breakLongRuns(exam.grade), kind: 'text' } : null,
      date ? { label: t('exams.pdf.date'), value: date, kind: 'date' } : null,
      // Figures, always short: the duration and the total marks share the last row.
      exam.durationMinutes
        ? { label: t('exams.pdf.duration'), value: t('exams.pdf.minutes', { count: exam.durationMinutes }), kind: 'figure' }
        : null,
      { label: t('exams.pdf.totalMarks'), value: t('exams.pdf.marks', { count: exam.totalMarks }), kind: 'figure' },
    ].filter((f) => f !== null),
    info: breakLongRuns(exam.info),
    showStudentName: exam.showStudentName,
  }
  const documents = printedDocuments(exam, options).map(({ version, isKey }) => ({
    badges: [
      version.label
        ? t('exams.pdf.version', { label: versionLetters[['A', 'B', 'C', 'D'].indexOf(version.label)] ?? version.label })
        : null,
      isKey ? t('exams.pdf.answerKey') : null,
    ].filter((b) => b !== null),
    isKey,
    questions: version.questions.map((q) => questionData(q, lang, isKey, imagePath)),
  }))
  return {
    data: {
      lang,
      dir: lang === 'ar' ? 'rtl' : 'ltr',
      words: {
        kingdom: t('exams.pdf.kingdom'),
        ministry: t('exams.pdf.ministry'),
        studentName: t('exams.pdf.studentName'),
        class: t('exams.pdf.class'),
        true: t('exams.pdf.true'),
        false: t('exams.pdf.false'),
        columnA: t('exams.pdf.columnA'),
        columnB: t('exams.pdf.columnB'),
        matchHint: t('exams.pdf.matchHint'),
        essayKey: t('exams.pdf.essayKey'),
        page: t('exams.pdf.page'),
      },
      header,
      documents,
    },
    files,
  }
}

const template = String.raw`
#let d = json(bytes(sys.inputs.exam))
#let is-ar = d.lang == "ar"
#let ink = rgb("#111111")
#let muted = rgb("#555555")
#let rule = rgb("#9a9a9a")
#let key-ink = rgb("#0f5d52")
#let key-soft = rgb("#e3f1ee")

// Amiri draws smaller than Plex at the same size, and taller: Arabic pages are set larger, with
// more leading, and the Latin letters and digits inside them a step smaller to match.
#let base-size = if is-ar { 13.5pt } else { 11pt }
#set text(size: base-size, fill: ink, lang: d.lang, dir: if is-ar { rtl } else { ltr })
#set par(leading: if is-ar { 0.75em } else { 0.6em }, spacing: 0.8em, justify: false)
#show regex("[\u{21}-\u{7E}]+"): it => if is-ar { text(size: 0.86em, it) } else { it }
#show regex("[\u{600}-\u{6FF}\u{750}-\u{77F}\u{FB50}-\u{FDFF}\u{FE70}-\u{FEFF}]+"): it => if is-ar { it } else { text(size: 1.18em, it) }

// The ʻ of a transliterated Hijri month ("Rabiʻ II", "Shaʻban") is a modifier letter outside the
// range the font rules give Plex, so Amiri drew it in the middle of a Plex date (and Plex's own
// draws it as wide as a letter): it prints as the ‘ it stands for, in Plex, tight against its word.
#show "\u{2BB}": "\u{2018}"

// The teacher's text reads in its own direction, as dir="auto" does on a page: an English
// sentence in an Arabic test (or the reverse) starts at its own side.
#let arabic-first = regex("^[^\p{L}]*\p{Arabic}")
#let dir-of(s) = if s.match(arabic-first) != none { rtl } else { ltr }
#let own(s) = { set text(dir: dir-of(s)); s }

#let page-body = 297mm - 14mm - 20mm
#set page(paper: "a4", margin: (x: 15mm, top: 14mm, bottom: 20mm), footer: context {
  // Each document (test, key, version) numbers its own pages: the next end marker closes this one.
  let ends = query(selector(<doc-end>).after(here()))
  let total = if ends.len() > 0 { counter(page).at(ends.first().location()).first() } else { counter(page).final().first() }
  let n = counter(page).get().first()
  set text(size: 0.8em, fill: muted)
  align(center, d.words.page.replace("{page}", str(n)).replace("{total}", str(total)))
})

// A pill whose text sits on the line's baseline, even among the header's taller line boxes.
#let badge(body, fill: key-ink) = box(fill: fill, radius: 3pt, inset: (x: 2.4mm, y: 1.8mm), baseline: 1.8mm,
  text(fill: white, weight: "bold", size: 0.85em, top-edge: "cap-height", bottom-edge: "baseline", body))

// The header's lines have boxes that span their ascenders and descenders, so no line touches
// the next (the default edges leave ي under one line meeting أ over the next), and every row of
// the block is as tall as what it holds. Such boxes are tall already: a school name or a title
// that wraps steps down by the same small gap as the stacked lines, not by a body paragraph's.
#let header-gap = 0.25em
#let tall(body) = {
  set text(top-edge: "ascender", bottom-edge: "descender")
  set par(leading: header-gap)
  body
}

// A value beside its label or its number: read in its own direction, but set against the page's
// start side, next to what it belongs to. (Aligned to its own start, an English value in an Arabic
// test would stand at the far side of its cell, a column away from its number.)
#let page-start = if is-ar { right } else { left }
#let hug(s) = align(page-start, own(s))

#let header-block(doc) = tall(layout(size => {
  // The gaps between the fields, the title and the rule are the v() below, nothing more.
  set block(spacing: 0pt)
  // Every line of the fields rises as high and drops as low as any script they hold can, so a
  // label and a value in different scripts (an Arabic subject in an English test) share one
  // baseline, and the rows keep one rhythm.
  let written = d.header.fields.map(f => f.label + f.value).join()
  let samples = (
    if written.contains(regex("\p{Arabic}")) { "\u{62C}" },
    if written.contains(regex("[\p{Latin}\p{Nd}]")) { "x" },
  ).filter(s => s != none)
  let edge(s, top, bottom) = measure(text(top-edge: top, bottom-edge: bottom, s)).height
  let ascent = calc.max(0pt, ..samples.map(s => edge(s, "ascender", "baseline")))
  let descent = calc.max(0pt, ..samples.map(s => edge(s, "baseline", "descender")))
  let label(f) = text(fill: muted, f.label + ":")
  // A row for each of the subject, the grade and the date; the duration and the total marks,
  // two short figures, side by side on the last.
  let alone(f) = (label(f), grid.cell(colspan: 3, hug(f.value)))
  let figures = d.header.fields.filter(f => f.kind == "figure")
  let rows = d.header.fields.filter(f => f.kind != "figure").map(alone)
  if figures.len() == 1 { rows.push(alone(figures.first())) }
  if figures.len() == 2 { rows.push(figures.map(f => (label(f), hug(f.value))).flatten()) }
  let fields(columns) = {
    set text(top-edge: ascent, bottom-edge: -descent)
    grid(columns: columns, column-gutter: (4mm, 6mm, 4mm), row-gutter: header-gap, align: start + top, ..rows.flatten())
  }
  // The fields take the width they need with every value on one line, at most half the page,
  // and always enough for the date to stay on one line; the ministry and the school have the rest.
  let natural = measure(fields(4)).width
  let labels = calc.max(0pt, ..rows.map(r => measure(r.first()).width)) + 4mm
  let date = d.header.fields.filter(f => f.kind == "date").map(f => labels + measure(own(f.value)).width + 1pt)
  let width = calc.min(size.width * 0.7, calc.max(calc.min(natural, size.width * 0.5), ..date))
  grid(columns: (1fr, width), column-gutter: 6mm, align: (start + top, start + top),
    stack(spacing: header-gap,
      text(weight: "bold", d.words.kingdom),
      text(weight: "bold", d.words.ministry),
      if d.header.school != "" { text(weight: "bold", hug(d.header.school)) }),
    fields((auto, auto, auto, 1fr)),
  )
  v(4mm)
  // The title across the page, centred, the version and key badges after it; a title that wraps
  // is cut into lines of even length, so no word is left alone on the last one.
  let title = text(size: 1.25em, weight: "bold", own(d.header.title))
  let heading = if doc.badges.len() > 0 { title + h(3mm) + doc.badges.map(b => badge(b)).join(h(2mm)) } else { title }
  let most = size.width * 0.95
  let lines = calc.max(1, calc.ceil(measure(heading).width / most))
  align(center, block(width: calc.min(most, measure(heading).width / lines * 1.12), align(center, heading)))
}))

#let school-header(doc) = {
  header-block(doc)
  v(2.5mm)
  line(length: 100%, stroke: 1pt + ink)
  if d.header.showStudentName {
    v(3mm)
    grid(columns: (auto, 1fr, auto, 0.45fr), column-gutter: 2mm, align: bottom,
      text(weight: "bold", d.words.studentName + ":"), box(width: 100%, stroke: (bottom: 0.6pt + ink), h(1mm)),
      text(weight: "bold", d.words.class + ":"), box(width: 100%, stroke: (bottom: 0.6pt + ink), h(1mm)),
    )
  }
  if d.header.info != "" {
    v(3mm)
    block(width: 100%, stroke: 0.6pt + rule, radius: 3pt, inset: (x: 3mm, y: 2.5mm), own(d.header.info))
  }
  v(4mm)
}

// A circled letter or number; filled in the key where it marks the right answer.
#let mark(body, filled: false, square: false) = box(baseline: 22%, {
  let size = 1.3em
  let shape = if square { rect.with(radius: 1.5pt) } else { circle }
  box(width: size, height: size, shape(width: size, height: size, stroke: 0.7pt + if filled { key-ink } else { ink }, fill: if filled { key-ink } else { none },
    align(center + horizon, text(size: 0.78em, weight: "bold", fill: if filled { white } else { ink }, body))))
})
#let tick(filled) = box(baseline: 18%, rect(width: 1em, height: 1em, radius: 1.5pt, stroke: 0.7pt + if filled { key-ink } else { ink }, fill: if filled { key-ink } else { none },
  if filled { place(center + horizon, polygon(fill: white, stroke: none, (0.2em, 0.5em), (0.42em, 0.72em), (0.82em, 0.26em), (0.9em, 0.36em), (0.42em, 0.86em), (0.12em, 0.58em))) }))

#let option-cell(o, square) = {
  let body = [#mark(o.letter, filled: o.isCorrect, square: square) #h(1.5mm) #own(o.text)]
  if o.isCorrect { text(fill: key-ink, weight: "bold", body) } else { body }
}

#let answer-line(content: none) = box(width: 100%, height: 1.6em, stroke: (bottom: (paint: rule, thickness: 0.6pt, dash: "dotted")), align(start + bottom, content))

#let blank(answer) = if answer == none {
  box(width: 30mm, height: 1.1em, stroke: (bottom: 0.7pt + ink))
} else {
  box(stroke: (bottom: 0.7pt + key-ink), inset: (x: 2mm), outset: (bottom: 1.5pt), text(fill: key-ink, weight: "bold", answer))
}

#let question-body(q, doc) = {
  if q.type == "fill_blank" {
    set text(dir: dir-of(q.pieces.join("")))
    q.pieces.enumerate().map(((i, piece)) => if i < q.answers.len() { piece + blank(q.answers.at(i)) } else { [#piece] }).join()
  } else {
    own(q.text)
  }
  if q.image != none {
    v(2mm)
    align(center, image(q.image.path, width: q.image.widthMm * 1mm))
  }
  if q.type == "multiple_choice" or q.type == "checkbox" {
    v(1.5mm)
    grid(columns: range(q.columns).map(_ => 1fr), column-gutter: 3mm, row-gutter: 2.5mm,
      ..q.options.map(o => option-cell(o, q.type == "checkbox")))
  } else if q.type == "true_false" {
    v(1.5mm)
    stack(dir: if is-ar { rtl } else { ltr }, spacing: 8mm,
      [#tick(q.answer == true) #h(1.5mm) #d.words.true],
      [#tick(q.answer == false) #h(1.5mm) #d.words.false])
  } else if q.type == "essay" {
    v(1mm)
    if doc.isKey { text(fill: key-ink, style: "italic", d.words.essayKey) }
    for i in range(q.lines) { answer-line() }
  } else if q.type == "matching" {
    v(1.5mm)
    text(size: 0.85em, fill: muted, d.words.matchHint)
    v(1mm)
    table(columns: (1.3em + 2.4mm, 1fr, auto, 4mm, 1.3em + 2.4mm, 1fr), stroke: none, inset: (x: 1.2mm, y: 1.6mm), align: horizon,
      table.header(table.cell(colspan: 3, text(weight: "bold", d.words.columnA)), [], table.cell(colspan: 2, text(weight: "bold", d.words.columnB))),
      table.hline(stroke: 0.5pt + rule),
      ..range(q.left.len()).map(i => {
        let l = q.left.at(i)
        let r = q.right.at(i)
        (
          mark(l.number),
          hug(l.text),
          box(width: 10mm, height: 1.5em, stroke: 0.7pt + if l.answer != none { key-ink } else { ink }, radius: 2pt, fill: if l.answer != none { key-soft } else { none },
            align(center + horizon, if l.answer != none { text(fill: key-ink, weight: "bold", l.answer) })),
          [],
          mark(r.number, square: true),
          hug(r.text),
        )
      }).flatten(),
    )
  }
}

#let question(q, doc) = {
  let body = {
    grid(columns: (auto, 1fr, auto), column-gutter: 2.5mm, align: (start + top, start + top, end + top),
      box(fill: ink, radius: 2pt, inset: (x: 1.8mm, y: 1mm), text(fill: white, weight: "bold", size: 0.9em, q.number)),
      question-body(q, doc),
      box(stroke: 0.6pt + ink, radius: 2pt, inset: (x: 1.6mm, y: 0.9mm), text(size: 0.8em, q.marks)),
    )
    v(1mm)
  }
  // A question stays on one page when it fits on one; only a question taller than a page breaks.
  if q.isShort {
    block(width: 100%, breakable: false, above: 5mm, below: 5mm, body)
  } else {
    layout(size => {
      let height = measure(block(width: size.width, body)).height
      block(width: 100%, breakable: height > page-body - 10mm, above: 5mm, below: 5mm, body)
    })
  }
}

#for (i, doc) in d.documents.enumerate() {
  if i > 0 { pagebreak() }
  counter(page).update(1)
  school-header(doc)
  for q in doc.questions { question(q, doc) }
  [#metadata(i) <doc-end>]
}

// Last: a set rule that changes with every test at the top would stop typst reusing layout.
#set document(title: d.header.title)
`

/** The test (or its key, or its versions with their keys) as one A4 PDF. */
export function renderExamPdf(exam: ExamRecord, options: ExamPrintOptions): Uint8Array {
  const { data, files } = examPrintData(exam, options)
  return renderPdf(template, { inputs: { exam: JSON.stringify(data) }, images: files })
}

const A4_HEIGHT_PT = 841.89

/**
 * The same pages as one SVG (stacked A4 pages), for the print preview: the page shows, and the
 * browser prints, exactly what the PDF holds.
 */
export function renderExamSvg(exam: ExamRecord, options: ExamPrintOptions): { svg: string; pages: number } {
  const { data, files } = examPrintData(exam, options)
  const svg = renderSvg(template, { inputs: { exam: JSON.stringify(data) }, images: files })
  const height = Number(/viewBox="0 0 [\d.]+ ([\d.]+)"/.exec(svg)?.[1] ?? A4_HEIGHT_PT)
  return { svg, pages: Math.max(1, Math.round(height / A4_HEIGHT_PT)) }
}

export type ExamPrintOutput = 'pages' | 'pdf' | 'svg'
export type ExamPrint = { pages: number; pdf?: Uint8Array; svg?: string }

async function renderInProcess(
  source: string,
  inputs: Record<string, string>,
  images: Record<string, Uint8Array>,
  output: ExamPrintOutput,
) {
  try {
    return await renderOffThread(source, { inputs, images }, { pdf: output === 'pdf', svg: output === 'svg' })
  } catch (error) {
    if (!(error instanceof PdfRenderLimitError)) throw error
    if (error.code === 'memory') throw new DomainError(422, 'exams.errors.renderTooLarge')
    if (error.code === 'timeout') throw new DomainError(503, 'exams.errors.renderTimeout', undefined, 60)
    throw new DomainError(503, 'exams.errors.renderBusy', undefined, 30)
  }
}

/**
 * The test as the print page (its page count), its preview (SVG) or its PDF need it, in a render
 * process, never on the event loop. Each answer is cached by content, and the render process's
 * typst keeps the layout it computed, so the page count, the SVG and the PDF of one test lay it
 * out once. A test whose copy is over EXAM_LIMITS.pagesPerCopy pages, or a print past the render's
 * time or memory budget, is refused with a DomainError naming the limit.
 */
export async function renderExamPrint(exam: ExamRecord, options: ExamPrintOptions, output: ExamPrintOutput): Promise<ExamPrint> {
  // The key and the versions print the same questions: a test whose plain copy is already too
  // long is refused at the cost of laying out that one copy, not eight.
  const isCopy = !options.answers && !options.versions
  if (!isCopy) await renderExamPrint(exam, { ...options, answers: false, versions: null, seed: undefined }, 'pages')
  const { data, files } = examPrintData(exam, options)
  const rendered = await renderInProcess(template, { exam: JSON.stringify(data) }, files, output)
  // The limit is the copy's (a teacher shortens the test, not its key): a key writes its answers
  // in, so a copy of exactly 50 pages may have a key of a few more. Keys and versions are bounded
  // by their copy, checked above, and by the render's own budgets; twice the pages is only a guard.
  const allowed = EXAM_LIMITS.pagesPerCopy * data.documents.length * (isCopy ? 1 : 2)
  if (rendered.pages > allowed) throw new DomainError(422, 'exams.errors.tooManyPages')
  return rendered
}

/**
 * A refused print on the download and preview routes: a small page in the teacher's language
 * with the limit it met (and Retry-After when waiting helps), in place of the file.
 */
export function examPrintErrorPage(lang: Lang, error: DomainError): Response {
  const { t } = wordsFor(lang)
  const escape = (text: string) =>
    text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)
  const html = `<!doctype html>
<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(t('exams.print.failedTitle'))}</title></head>
<body><main><h1>${escape(t('exams.print.failedTitle'))}</h1><p>${escape(t(error.messageKey))}</p><p><a href="/${lang}/exams">${escape(t('exams.print.backToList'))}</a></p></main></body>
</html>
`
  const headers: Record<string, string> = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, no-store' }
  if (error.retryAfterSeconds) headers['Retry-After'] = String(error.retryAfterSeconds)
  return new Response(html, { status: error.status, headers })
}

export type ExamPrintRequest = ExamPrintKind & { exam: ExamRecord; db: Db; files: FileStore; userId: string; lang: Lang }

/** Reads the test's images (the teacher's own) for printing it. */
export async function examPrintOptions({
  exam,
  db,
  files,
  userId,
  lang,
  answers,
  versions,
  seed,
}: ExamPrintRequest): Promise<ExamPrintOptions> {
  const ids = exam.questions.flatMap((q) => (q.image ? [q.image] : []))
  const images = await readExamImages({ db, files, userId, ids })
  return { lang, answers, versions, seed, images }
}

/** `مادة العلوم - نموذج الإجابة.pdf`: the title and what the file holds, safe as a file name anywhere. */
export function examPdfFileName(exam: Pick<ExamRecord, 'title'>, kind: ExamPrintKind, lang: Lang): string {
  const { t } = wordsFor(lang)
  const what = kind.versions ? t('exams.pdf.fileVersions', { count: kind.versions }) : kind.answers ? t('exams.pdf.answerKey') : ''
  // Letters, digits, spaces and a little punctuation: nothing a file system or a header refuses.
  const clean = (text: string) =>
    text
      .replace(/[^\p{L}\p{M}\p{N} ._()-]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  const base = [clean(exam.title).slice(0, 80), what].filter(Boolean).join(' - ')
  return `${base || 'exam'}.pdf`
}

/** The PDF as a download; the name in UTF-8 (RFC 6266), with a plain fallback for old clients. */
export function examPdfResponse(pdf: Uint8Array, fileName: string): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="exam.pdf"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      'Cache-Control': 'private, no-store',
    },
  })
}
