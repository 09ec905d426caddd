import { guideSheet, sampleWords, type SampleWords } from '#app/features/analyses/index.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import { writeWorkbook, type XlsxCell, type XlsxSheet } from '#app/platform/xlsx/write.server.ts'
import { sampleMaxScore, sampleSchool, sampleStudents, sampleSubjects } from './sample-data.ts'

// The downloadable sample for the grades tool, laid out as docs/grades.md describes: a title block,
// an empty row, the header row and one row per student per subject; then a sheet that explains
// every column in Arabic and in English, whatever the file's language.

const namespace = 'grades-sample'

const columns = [
  { key: 'student', isRequired: true, width: 34 },
  { key: 'studentId', isRequired: false, width: 14 },
  { key: 'grade', isRequired: true, width: 18 },
  { key: 'classroom', isRequired: true, width: 8 },
  { key: 'subject', isRequired: false, width: 16 },
  { key: 'score', isRequired: true, width: 10 },
  { key: 'max', isRequired: false, width: 14 },
] as const

type ColumnKey = (typeof columns)[number]['key']

/** Fixed, so the file's bytes (and its ETag) only change when its content does. */
const createdAt = new Date(Date.UTC(2025, 8, 1))

type Words = SampleWords

const wordsFor = (lang: Lang): Words => sampleWords(namespace, lang)

function dataSheet(lang: Lang, { word }: Words): XlsxSheet {
  const label = (key: string): XlsxCell => ({ value: word(`title.${key}`), style: 'bold' })
  const header = columns.map((c) => ({ value: word(`headers.${c.key}`), style: 'header' as const }))
  const rows: XlsxCell[][] = [
    [label('school'), sampleSchool[lang]],
    [label('subject'), word('values.titleSubject')],
    [label('exam'), word('values.exam')],
    [label('term'), word('values.term')],
    [label('max'), sampleMaxScore],
    [],
    header,
  ]
  const byClassroom = [...sampleStudents].sort((a, b) => a.classroom - b.classroom)
  for (const subject of sampleSubjects) {
    for (const student of byClassroom) {
      const score = student.scores[subject]
      const cells: Record<ColumnKey, XlsxCell> = {
        student: student.name[lang],
        studentId: student.nationalId,
        grade: word('values.grades.firstSecondary'),
        classroom: student.classroom,
        subject: word(`values.subjects.${subject}`),
        score: score === 'absent' ? word('absent') : score,
        max: sampleMaxScore,
      }
      rows.push(columns.map((c) => cells[c.key]))
    }
  }
  return {
    name: word('sheets.data'),
    rightToLeft: lang === 'ar',
    columns: columns.map((c) => ({ width: c.width })),
    freezeRows: rows.indexOf(header) + 1,
    rows,
  }
}

/** Each column's example value in one language, from that language's sample. */
function examplesFor(lang: Lang, { word }: Words): Record<ColumnKey, XlsxCell> {
  const firstStudent = sampleStudents[0]
  return {
    student: firstStudent?.name[lang] ?? null,
    studentId: firstStudent?.nationalId ?? null,
    grade: word('values.grades.firstSecondary'),
    classroom: 1,
    subject: word('values.subjects.math'),
    score: 42.5,
    max: sampleMaxScore,
  }
}

/** The sample grades workbook (.xlsx bytes) in the page's language. */
export function gradesSampleWorkbook(lang: Lang): Uint8Array {
  const words: Record<Lang, Words> = { ar: wordsFor('ar'), en: wordsFor('en') }
  return writeWorkbook({
    created: createdAt,
    sheets: [dataSheet(lang, words[lang]), guideSheet(lang, words, columns, examplesFor)],
  })
}
