// Grades workbooks in the sample layout (shared/specs/grades.md), written the way Excel writes
// them (shared strings, numbers as numbers, spans on rows), of any size: one row per student per
// subject, scores in quarter marks, a few absent students and a few rows to skip.
import { buildWorkbook, worksheetXml } from '#app/server/xlsx/test-zip.ts'

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

const FIRST_NAMES = [
  'محمد', 'أحمد', 'عبدالله', 'عبدالرحمن', 'فهد', 'خالد', 'سعود', 'فيصل', 'عمر', 'علي', 'يوسف', 'إبراهيم', 'سلطان', 'ماجد',
  'نايف', 'تركي', 'بندر', 'مشاري', 'راكان', 'زياد', 'حمد', 'ناصر', 'سلمان', 'عبدالعزيز', 'مُحمّد', 'أنس', 'ريان', 'هشام',
]
const FAMILY_NAMES = ['الغامدي', 'الزهراني', 'القحطاني', 'العتيبي', 'الحربي', 'الشهري', 'الدوسري', 'المطيري', 'السبيعي', 'الجهني', 'البلوي', 'العمري']
const GRADES = ['الأول المتوسط', 'الثاني المتوسط', 'الثالث المتوسط']
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

/** A small deterministic generator (mulberry32), so every run reads the same workbook. */
function random(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

export function gradesWorkbook(options: GradesWorkbookOptions): GradesWorkbook {
  const rand = random(options.seed ?? 2025)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
  const studentCount = Math.ceil(options.rows / SUBJECTS.length)

  const strings: string[] = []
  const indexOf = new Map<string, number>()
  const sst = (s: string) => {
    let i = indexOf.get(s)
    if (i === undefined) {
      i = strings.length
      strings.push(s)
      indexOf.set(s, i)
    }
    return i
  }

  const students = Array.from({ length: studentCount }, (_v, i) => ({
    name: `${pick(FIRST_NAMES)} ${pick(FIRST_NAMES)} ${pick(FIRST_NAMES)} ${pick(FAMILY_NAMES)}`,
    id: String(1_100_000_000 + i * 7 + Math.floor(rand() * 7)),
    grade: GRADES[i % GRADES.length]!,
    classroom: String(1 + (Math.floor(i / GRADES.length) % 8)),
    // A student's level, so the subjects' scores are not independent noise.
    level: 0.35 + 0.6 * rand(),
  }))

  const textCell = (ref: string, s: string) => `<c r="${ref}" t="s"><v>${sst(s)}</v></c>`
  const numberCell = (ref: string, n: number) => `<c r="${ref}"><v>${n}</v></c>`
  const rowOpen = (r: number, span: number) => `<row r="${r}" spans="1:${span}" x14ac:dyDescent="0.25">`
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
