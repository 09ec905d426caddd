// Two daily absence files of one school a month apart (a week of September, a week of October),
// as Noor's daily report saved as CSV, with a guardian's mobile column: for issue 18's journeys
// (absence-trends.spec.ts works out their figures) and its pages' accessibility checks.

export const G = 'الأول المتوسط'
export const sara = 'سارة علي أحمد'
export const reem = 'ريم سعود فهد'
export const hind = 'هند عمر ناصر'

/** A week of daily records, Sunday to Thursday, as Noor's daily report saved as CSV. */
function weekCsv(days: string[], statuses: Record<string, string[]>, classrooms: Record<string, string>): string {
  const ids: Record<string, string> = { [sara]: '1100000001', [reem]: '1100000003', [hind]: '1100000004' }
  const mobiles: Record<string, string> = { [sara]: '0551234567' }
  const rows = Object.entries(statuses).flatMap(([name, marks]) =>
    days.map((day, i) => [name, ids[name], G, classrooms[name], day, marks[i] ?? 'حاضر', mobiles[name] ?? ''].join(',')),
  )
  return ['اسم المدرسة,متوسطة النور', '', 'اسم الطالب,رقم الهوية,الصف,الفصل,التاريخ,الحالة,جوال ولي الأمر', ...rows].join('\r\n')
}

export const september = weekCsv(
  ['2025-09-07', '2025-09-08', '2025-09-09', '2025-09-10', '2025-09-11'],
  { [sara]: ['غائب بدون عذر', 'غائب بدون عذر'], [reem]: [], [hind]: [] },
  { [sara]: '1', [reem]: '1', [hind]: '2' },
)
export const october = weekCsv(
  ['2025-10-05', '2025-10-06', '2025-10-07', '2025-10-08', '2025-10-09'],
  { [sara]: ['غائب بدون عذر', 'غائب بدون عذر', 'غائب بدون عذر'], [reem]: ['', '', '', '', 'غائب بعذر'], [hind]: [] },
  { [sara]: '1', [reem]: '2', [hind]: '2' },
)
