import { guideSheet, sampleWords, type SampleWords } from '#app/features/analyses/index.server.ts'
import { intlLocale, type Lang } from '#app/i18n/config.ts'
import { writeWorkbook, type XlsxCell, type XlsxSheet } from '#app/platform/xlsx/write.server.ts'
import { sampleClassrooms, sampleFirstSunday, sampleSchool, sampleStudents, sampleWeeks, type SampleStatus } from './sample-data.ts'

// The downloadable sample for the absence tool, laid out as docs/absence.md describes: a title block,
// an empty row, the header row and one row per student per school day; then a sheet that explains
// every column in Arabic and in English, whatever the file's language.

const namespace = 'absence-sample'

const columns = [
  { key: 'student', isRequired: true, width: 34 },
  { key: 'studentId', isRequired: false, width: 14 },
  { key: 'grade', isRequired: true, width: 22 },
  { key: 'classroom', isRequired: true, width: 8 },
  { key: 'section', isRequired: false, width: 22 },
  { key: 'system', isRequired: false, width: 18 },
  { key: 'date', isRequired: true, width: 13 },
  { key: 'day', isRequired: false, width: 12 },
  { key: 'status', isRequired: true, width: 20 },
] as const

type ColumnKey = (typeof columns)[number]['key']

const DAY_MS = 86_400_000
/** Fixed, so the file's bytes (and its ETag) only change when its content does. */
const createdAt = new Date(Date.UTC(2025, 8, 1))

type Words = SampleWords

const wordsFor = (lang: Lang): Words => sampleWords(namespace, lang)

function schoolDays(): Date[] {
  const days: Date[] = []
  for (let week = 0; week < sampleWeeks; week++)
    for (let day = 0; day < 5; day++) days.push(new Date(sampleFirstSunday + (week * 7 + day) * DAY_MS))
  return days
}

function weekdayName(lang: Lang, date: Date): string {
  return new Intl.DateTimeFormat(intlLocale[lang], { weekday: 'long', timeZone: 'UTC' }).format(date)
}

function dataSheet(lang: Lang, { word }: Words): XlsxSheet {
  const days = schoolDays()
  const first = days[0] as Date
  const last = days[days.length - 1] as Date
  const label = (key: string): XlsxCell => ({ value: word(`title.${key}`), style: 'bold' })
  const header = columns.map((c) => ({ value: word(`headers.${c.key}`), style: 'header' as const }))

  const rows: XlsxCell[][] = [
    [label('school'), sampleSchool[lang]],
    [label('from'), first],
    [label('to'), last],
    [label('term'), word('values.term')],
    [],
    header,
  ]
  days.forEach((date, dayIndex) => {
    for (const student of sampleStudents) {
      const room = sampleClassrooms[student.classroom]
      if (!room) throw new Error(`Sample student ${student.nationalId} has no classroom`)
      const status: SampleStatus = student.exceptions[dayIndex] ?? 'present'
      const cells: Record<ColumnKey, XlsxCell> = {
        student: student.name[lang],
        studentId: student.nationalId,
        grade: word(`values.grades.${room.grade}`),
        classroom: room.classroom,
        section: word(`values.sections.${room.section}`),
        system: word('values.systems.day'),
        date,
        day: weekdayName(lang, date),
        status: word(`statuses.${status}`),
      }
      rows.push(columns.map((c) => cells[c.key]))
    }
  })

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
  const date = schoolDays()[0] as Date
  const firstStudent = sampleStudents[0]
  return {
    student: firstStudent?.name[lang] ?? null,
    studentId: firstStudent?.nationalId ?? null,
    grade: word('values.grades.first'),
    classroom: 1,
    section: word('values.sections.general'),
    system: word('values.systems.day'),
    date,
    day: weekdayName(lang, date),
    status: word('statuses.excused'),
  }
}

/** The sample absence workbook (.xlsx bytes) in the page's language. */
export function absenceSampleWorkbook(lang: Lang): Uint8Array {
  const words: Record<Lang, Words> = { ar: wordsFor('ar'), en: wordsFor('en') }
  return writeWorkbook({
    created: createdAt,
    sheets: [dataSheet(lang, words[lang]), guideSheet(lang, words, columns, examplesFor)],
  })
}
