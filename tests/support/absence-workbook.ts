// Attendance workbooks in the sample layout (docs/absence.md), written the way Excel
// writes them (shared strings, date cells with a date style, spans on rows), of any size: the
// reader's benchmark and the absence analysis benchmark read the same files.
import { buildWorkbook, worksheetXml } from './workbooks.ts'
import { GRADES, random, sheetCells, studentName } from './workbook-kit.ts'

export interface AbsenceWorkbookOptions {
  /** Data rows (one student on one school day). */
  readonly rows: number
  /** School days per student; by default 20, 50 or 100 depending on the size. */
  readonly days?: number
  readonly sheetName?: string
  readonly seed?: number
}

export interface AbsenceWorkbook {
  readonly data: Uint8Array
  readonly rows: number
  readonly students: number
  readonly days: number
  /** Bytes of the worksheet XML once inflated. */
  readonly sheetBytes: number
}

const WEEKDAYS = ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس']
const HEADERS = ['اسم الطالب', 'رقم الهوية', 'الصف', 'الفصل', 'القسم', 'النظام الدراسي', 'التاريخ', 'اليوم', 'الحالة']
/** Sunday 24 August 2025 (1 Rabi al-Awwal 1447), the first school day. */
const FIRST_DAY_SERIAL = 45_893

const COLUMNS = 'ABCDEFGHI'

export function absenceWorkbook(options: AbsenceWorkbookOptions): AbsenceWorkbook {
  const rand = random(options.seed ?? 2025)
  const days = options.days ?? (options.rows >= 100_000 ? 100 : options.rows >= 10_000 ? 50 : 20)
  const studentCount = Math.ceil(options.rows / days)

  const { strings, textCell, rowOpen } = sheetCells()

  const students = Array.from({ length: studentCount }, (_v, i) => ({
    name: studentName(rand),
    id: String(1_100_000_000 + i * 7 + Math.floor(rand() * 7)),
    grade: GRADES[i % GRADES.length]!,
    classroom: String(1 + (Math.floor(i / GRADES.length) % 4)),
    section: rand() < 0.8 ? 'عام' : 'تحفيظ',
    system: rand() < 0.9 ? 'نهاري' : 'ليلي',
  }))
  // School days: Sunday to Thursday.
  const schoolDays = Array.from({ length: days }, (_v, d) => ({
    serial: FIRST_DAY_SERIAL + Math.floor(d / 5) * 7 + (d % 5),
    weekday: WEEKDAYS[d % 5]!,
  }))

  const parts: string[] = [
    `${rowOpen(1, 1)}${textCell('A1', 'تقرير الغياب')}</row>`,
    `${rowOpen(2, 2)}${textCell('A2', 'اسم المدرسة')}${textCell('B2', 'متوسطة النور')}</row>`,
    `${rowOpen(3, 4)}${textCell('A3', 'من تاريخ')}${textCell('B3', '1447/03/01')}${textCell('C3', 'إلى تاريخ')}${textCell('D3', '1447/06/10')}</row>`,
    `${rowOpen(5, 9)}${HEADERS.map((h, i) => textCell(`${COLUMNS[i]}5`, h)).join('')}</row>`,
  ]
  let r = 6
  let written = 0
  for (const student of students) {
    for (const day of schoolDays) {
      if (written === options.rows) break
      const x = rand()
      const status = x < 0.9 ? 'حاضر' : x < 0.94 ? 'غائب بعذر' : x < 0.97 ? 'غائب بدون عذر' : 'متأخر'
      parts.push(
        rowOpen(r, 9) +
          textCell(`A${r}`, student.name) +
          textCell(`B${r}`, student.id) +
          textCell(`C${r}`, student.grade) +
          textCell(`D${r}`, student.classroom) +
          textCell(`E${r}`, student.section) +
          textCell(`F${r}`, student.system) +
          `<c r="G${r}" s="1"><v>${day.serial}</v></c>` +
          textCell(`H${r}`, day.weekday) +
          textCell(`I${r}`, status) +
          '</row>',
      )
      r++
      written++
    }
  }
  const sheetXml = worksheetXml(parts.join(''))
  const data = buildWorkbook({ sheets: [{ name: options.sheetName ?? 'الغياب', xml: sheetXml }], sharedStrings: strings, cellXfs: [0, 14] })
  return { data, rows: written, students: studentCount, days, sheetBytes: Buffer.byteLength(sheetXml) }
}
