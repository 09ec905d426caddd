// Grades workbooks in the sample layout (docs/grades.md), written the way Excel writes
// them (shared strings, numbers as numbers, spans on rows), of any size: one row per student per
// subject, scores in quarter marks, a few absent students and a few rows to skip.
import { buildWorkbook, worksheetXml } from '#tests/support/workbooks.ts'
import { GRADES, random, sheetCells, studentName } from '#tests/support/workbook-kit.ts'

export interface GradesWorkbookOptions {
  /** Data rows (one student's score in one subject). */
  readonly rows: number
  readonly sheetName?: string
  readonly seed?: number
}

export interface GradesWorkbook {
  readonly data: Uint8Array
  readonly rows: number
  readonly students: number
  readonly subjects: number
  /** Bytes of the worksheet XML once inflated. */
  readonly sheetBytes: number
}

/** Subject and its max score. */
const SUBJECTS: ReadonlyArray<readonly [string, number]> = [
  ['الرياضيات', 100],
  ['العلوم', 40],
  ['لغتي', 100],
  ['اللغة الإنجليزية', 50],
  ['الدراسات الاجتماعية', 20],
]
const HEADERS = ['اسم الطالب', 'رقم الهوية', 'الصف', 'الفصل', 'المادة', 'الدرجة', 'الدرجة العظمى']
const COLUMNS = 'ABCDEFG'

export function gradesWorkbook(options: GradesWorkbookOptions): GradesWorkbook {
  const rand = random(options.seed ?? 2025)
  const studentCount = Math.ceil(options.rows / SUBJECTS.length)

  const { strings, textCell, numberCell, rowOpen } = sheetCells()

  const students = Array.from({ length: studentCount }, (_v, i) => ({
    name: studentName(rand),
    id: String(1_100_000_000 + i * 7 + Math.floor(rand() * 7)),
    grade: GRADES[i % GRADES.length]!,
    classroom: String(1 + (Math.floor(i / GRADES.length) % 8)),
    // A student's level, so the subjects' scores are not independent noise.
    level: 0.35 + 0.6 * rand(),
  }))

  const parts: string[] = [
    `${rowOpen(1, 1)}${textCell('A1', 'كشف الدرجات')}</row>`,
    `${rowOpen(2, 2)}${textCell('A2', 'اسم المدرسة')}${textCell('B2', 'متوسطة النور')}</row>`,
    `${rowOpen(3, 2)}${textCell('A3', 'الاختبار')}${textCell('B3', 'اختبار نهاية الفصل')}</row>`,
    `${rowOpen(5, 7)}${HEADERS.map((h, i) => textCell(`${COLUMNS[i]}5`, h)).join('')}</row>`,
  ]
  let r = 6
  let written = 0
  for (const [subject, max] of SUBJECTS) {
    for (const student of students) {
      if (written === options.rows) break
      const x = rand()
      // 3% absent (written `غائب`), 0.1% a typing error the analysis skips, the rest scored.
      const score =
        x < 0.03
          ? textCell(`F${r}`, 'غائب')
          : x < 0.031
            ? numberCell(`F${r}`, max + 5)
            : numberCell(`F${r}`, Math.round(Math.min(1, Math.max(0, student.level + (rand() - 0.5) * 0.4)) * max * 4) / 4)
      parts.push(
        rowOpen(r, 7) +
          textCell(`A${r}`, student.name) +
          textCell(`B${r}`, student.id) +
          textCell(`C${r}`, student.grade) +
          textCell(`D${r}`, student.classroom) +
          textCell(`E${r}`, subject) +
          score +
          numberCell(`G${r}`, max) +
          '</row>',
      )
      r++
      written++
    }
  }
  const sheetXml = worksheetXml(parts.join(''))
  const data = buildWorkbook({ sheets: [{ name: options.sheetName ?? 'الدرجات', xml: sheetXml }], sharedStrings: strings })
  return { data, rows: written, students: studentCount, subjects: SUBJECTS.length, sheetBytes: Buffer.byteLength(sheetXml) }
}
