// The people and the school in the downloadable sample file: invented, but shaped like a real
// Noor export (four-part names, ten-digit national IDs, Sunday-to-Thursday school weeks).
// The words around them (headers, statuses, grade names) live in locales/<lang>/absence-sample.json.

export type SampleStatus = 'present' | 'late' | 'excused' | 'unexcused'

type Bilingual = { readonly ar: string; readonly en: string }

export interface SampleClassroom {
  /** A key of `values.grades` in the locale file. */
  readonly grade: 'first' | 'second'
  readonly classroom: number
  /** A key of `values.sections`. */
  readonly section: 'general' | 'quran'
}

export interface SampleStudent {
  readonly name: Bilingual
  readonly nationalId: string
  /** Index into `sampleClassrooms`. */
  readonly classroom: number
  /** School-day index (0 = the first Sunday) → the day's status; every other day is present. */
  readonly exceptions: Readonly<Record<number, Exclude<SampleStatus, 'present'>>>
}

export const sampleSchool: Bilingual = {
  ar: 'متوسطة عمر بن الخطاب بالرياض',
  en: 'Omar bin Al-Khattab Intermediate School, Riyadh',
}

/** Sunday 7 September 2025 (15 Rabi al-Awwal 1447), two school weeks from there. */
export const sampleFirstSunday = Date.UTC(2025, 8, 7)
export const sampleWeeks = 2

export const sampleClassrooms: readonly SampleClassroom[] = [
  { grade: 'first', classroom: 1, section: 'general' },
  { grade: 'first', classroom: 2, section: 'quran' },
  { grade: 'second', classroom: 1, section: 'general' },
]

export const sampleStudents: readonly SampleStudent[] = [
  {
    name: { ar: 'عبدالله محمد سعد القحطاني', en: 'Abdullah Mohammed Saad Al-Qahtani' },
    nationalId: '1123456781',
    classroom: 0,
    exceptions: { 3: 'late' },
  },
  {
    name: { ar: 'فيصل عبدالرحمن ناصر العتيبي', en: 'Faisal Abdulrahman Nasser Al-Otaibi' },
    nationalId: '1132457869',
    classroom: 0,
    exceptions: { 1: 'excused', 7: 'late' },
  },
  {
    name: { ar: 'تركي خالد عبدالعزيز الشهري', en: 'Turki Khalid Abdulaziz Al-Shehri' },
    nationalId: '1109876543',
    classroom: 0,
    // Three unexcused days: the first warning level schools act on.
    exceptions: { 2: 'unexcused', 5: 'unexcused', 6: 'late', 9: 'unexcused' },
  },
  {
    name: { ar: 'نواف سعود عبدالله الغامدي', en: 'Nawaf Saud Abdullah Al-Ghamdi' },
    nationalId: '1145678902',
    classroom: 1,
    exceptions: {},
  },
  {
    name: { ar: 'أحمد إبراهيم علي الزهراني', en: 'Ahmed Ibrahim Ali Al-Zahrani' },
    nationalId: '1118273645',
    classroom: 1,
    exceptions: { 4: 'excused', 5: 'excused' },
  },
  {
    name: { ar: 'سلطان فهد حمد الدوسري', en: 'Sultan Fahad Hamad Al-Dosari' },
    nationalId: '1156473829',
    classroom: 2,
    exceptions: { 0: 'late', 8: 'unexcused' },
  },
  {
    name: { ar: 'يزيد ماجد صالح المطيري', en: 'Yazeed Majed Saleh Al-Mutairi' },
    nationalId: '1167584930',
    classroom: 2,
    exceptions: { 9: 'late' },
  },
  {
    name: { ar: 'راكان بندر مبارك الحربي', en: 'Rakan Bandar Mubarak Al-Harbi' },
    nationalId: '1173625481',
    classroom: 2,
    exceptions: { 2: 'unexcused', 3: 'excused' },
  },
]
