import { writeWorkbook } from '#app/platform/xlsx/write.server.ts'

// Small absence workbooks for the follow-up tests (issue 18), in the sample's daily layout: one
// row per student per school day (Sunday to Thursday from a given Sunday), the first `unexcused`
// days absent without excuse and the rest present, so a student's unexcused days are exactly as
// written.

export interface FixtureStudent {
  readonly name: string
  readonly studentId?: string
  readonly grade: string
  readonly classroom: string
  readonly unexcused: number
}

/** The school days (Sunday–Thursday) from `firstSunday` (YYYY-MM-DD), as UTC dates. */
export function schoolDays(firstSunday: string, count: number): Date[] {
  const days: Date[] = []
  const day = new Date(`${firstSunday}T00:00:00Z`)
  while (days.length < count) {
    if (day.getUTCDay() <= 4) days.push(new Date(day))
    day.setUTCDate(day.getUTCDate() + 1)
  }
  return days
}

/** The rows of a daily absence file: a header row, then each student's days. */
export function absenceRows(students: readonly FixtureStudent[], days: readonly Date[]) {
  const rows: (string | Date)[][] = [['اسم الطالب', 'رقم الهوية', 'الصف', 'الفصل', 'التاريخ', 'الحالة']]
  for (const s of students) {
    if (s.unexcused > days.length) throw new Error(`${s.name}: more unexcused days than school days`)
    days.forEach((day, i) => rows.push([s.name, s.studentId ?? '', s.grade, s.classroom, day, i < s.unexcused ? 'غياب بدون عذر' : 'حاضر']))
  }
  return rows
}

/** An .xlsx workbook of the students over `count` school days from `firstSunday`. */
export function absenceWorkbook(students: readonly FixtureStudent[], firstSunday: string, count: number): Uint8Array {
  return writeWorkbook({ sheets: [{ name: 'الغياب', rightToLeft: true, rows: absenceRows(students, schoolDays(firstSunday, count)) }] })
}

/**
 * Three uploads of one class a month apart (2025–2026 school year), worked out by hand in
 * docs/follow-up.md's terms. Standard ladder (3, 5, 10, 15, 25):
 * - سارة (ID): 3 → 5 → 6 unexcused days: step 1, then step 2, then step 2 (moves up once).
 * - نورة (ID): 2 → 2 → 3: no step (2 days), no step, then step 1 (exactly 3).
 * - ريم (ID): 5 in classroom 1 → 6 in classroom 2 → 10 in classroom 2: step 2, 2, 3 (changes classroom).
 * - هند (no ID): 25 in the first upload only (leaves the school): step 5 (exactly 25).
 * Short ladder (10, 15, 20): only ريم's 10 (step 1) and هند's 25 (step 3) reach a step.
 */
export const sara = { name: 'سارة علي محمد', studentId: '1100000001', grade: 'الأول المتوسط' } as const
export const noura = { name: 'نورة سعد خالد', studentId: '1100000002', grade: 'الأول المتوسط' } as const
export const reem = { name: 'ريم فهد ناصر', studentId: '1100000003', grade: 'الأول المتوسط' } as const
export const hind = { name: 'هند عمر سالم', grade: 'الأول المتوسط' } as const

export const threeUploads: readonly { readonly title: string; readonly days: number; readonly students: readonly FixtureStudent[] }[] = [
  {
    title: 'October',
    days: 30,
    students: [
      { ...sara, classroom: '1', unexcused: 3 },
      { ...noura, classroom: '1', unexcused: 2 },
      { ...reem, classroom: '1', unexcused: 5 },
      { ...hind, classroom: '1', unexcused: 25 },
    ],
  },
  {
    title: 'November',
    days: 50,
    students: [
      { ...sara, classroom: '1', unexcused: 5 },
      { ...noura, classroom: '1', unexcused: 2 },
      { ...reem, classroom: '2', unexcused: 6 },
    ],
  },
  {
    title: 'December',
    days: 70,
    students: [
      { ...sara, classroom: '1', unexcused: 6 },
      { ...noura, classroom: '1', unexcused: 3 },
      { ...reem, classroom: '2', unexcused: 10 },
    ],
  },
]

/** The first school day of every upload: Sunday 7 September 2025 (the 2025–2026 school year). */
export const firstSunday = '2025-09-07'
