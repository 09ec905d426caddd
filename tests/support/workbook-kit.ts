// What the benchmarks' generated workbooks share: a seeded random source (every run reads the
// same file), realistic Saudi names and grades, and cells written the way Excel writes them
// (shared strings in order of first use, spans on rows).

/** A small deterministic generator (mulberry32). */
export function random(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

export const FIRST_NAMES = [
  'محمد',
  'أحمد',
  'عبدالله',
  'عبدالرحمن',
  'فهد',
  'خالد',
  'سعود',
  'فيصل',
  'عمر',
  'علي',
  'يوسف',
  'إبراهيم',
  'سلطان',
  'ماجد',
  'نايف',
  'تركي',
  'بندر',
  'مشاري',
  'راكان',
  'زياد',
  'حمد',
  'ناصر',
  'سلمان',
  'عبدالعزيز',
  'مُحمّد',
  'أنس',
  'ريان',
  'هشام',
  'وليد',
  'طلال',
  'بدر',
  'ياسر',
]
export const FAMILY_NAMES = [
  'الغامدي',
  'الزهراني',
  'القحطاني',
  'العتيبي',
  'الحربي',
  'الشهري',
  'الدوسري',
  'المطيري',
  'السبيعي',
  'الجهني',
  'البلوي',
  'العمري',
  'الشمري',
  'العنزي',
  'المالكي',
  'الرشيدي',
  'السهلي',
  'اليامي',
  'الخالدي',
  'التميمي',
]
export const GRADES = ['الأول المتوسط', 'الثاني المتوسط', 'الثالث المتوسط']

/** A four-part name, as Noor writes them. */
export function studentName(rand: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
  return `${pick(FIRST_NAMES)} ${pick(FIRST_NAMES)} ${pick(FIRST_NAMES)} ${pick(FAMILY_NAMES)}`
}

/** Cell and row XML with a shared-strings table that numbers strings as Excel does. */
export function sheetCells() {
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
  return {
    strings,
    textCell: (ref: string, s: string) => `<c r="${ref}" t="s"><v>${sst(s)}</v></c>`,
    numberCell: (ref: string, n: number) => `<c r="${ref}"><v>${n}</v></c>`,
    rowOpen: (r: number, span: number) => `<row r="${r}" spans="1:${span}" x14ac:dyDescent="0.25">`,
  }
}
