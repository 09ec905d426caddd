// The people and the school in the downloadable grades sample: invented, but shaped like a real
// Noor export (four-part names, ten-digit national IDs). Scores are out of `sampleMaxScore` and
// cover every grade band in both subjects, with one absent student in each.
// The words around them (headers, subjects, grade names) live in locales/<lang>/grades-sample.json.

type Bilingual = { readonly ar: string; readonly en: string }

/** A score, or `absent` for a student who missed the exam. */
export type SampleScore = number | 'absent'

export interface SampleStudent {
  readonly name: Bilingual
  readonly nationalId: string
  /** The classroom number within the sample's one grade. */
  readonly classroom: number
  readonly scores: { readonly math: SampleScore; readonly chemistry: SampleScore }
}

export const sampleSchool: Bilingual = {
  ar: 'الثانوية الثالثة عشرة بجدة',
  en: '13th Secondary School, Jeddah',
}

export const sampleMaxScore = 50

/** Keys of `values.subjects` in the locale file, in the order the rows list them. */
export const sampleSubjects = ['math', 'chemistry'] as const

const student = (
  ar: string,
  en: string,
  nationalId: string,
  classroom: number,
  math: SampleScore,
  chemistry: SampleScore,
): SampleStudent => ({
  name: { ar, en },
  nationalId,
  classroom,
  scores: { math, chemistry },
})

export const sampleStudents: readonly SampleStudent[] = [
  student('نورة عبدالله محمد السبيعي', 'Noura Abdullah Mohammed Al-Subaie', '1102938475', 1, 48.5, 46),
  student('ريم خالد سعد العنزي', 'Reem Khalid Saad Al-Anazi', '1113847562', 1, 41.25, 44.5),
  student('لمى فهد عبدالعزيز القرني', 'Lama Fahad Abdulaziz Al-Qarni', '1124756390', 1, 36, 38.75),
  student('جود ناصر إبراهيم الشمري', 'Joud Nasser Ibrahim Al-Shammari', '1135664821', 1, 27.5, 25),
  student('سارة محمد علي البلوي', 'Sarah Mohammed Ali Al-Balawi', '1146573902', 1, 19.5, 'absent'),
  student('هيا سلطان عبدالرحمن الرشيد', 'Haya Sultan Abdulrahman Al-Rasheed', '1157482613', 1, 45, 42),
  student('شهد عبدالرحمن حمد الحارثي', 'Shahad Abdulrahman Hamad Al-Harthi', '1168391724', 2, 49.75, 47.5),
  student('رغد ماجد صالح العمري', 'Raghad Majed Saleh Al-Omari', '1179200835', 2, 'absent', 35.5),
  student('دانة سعود فيصل المالكي', 'Dana Saud Faisal Al-Malki', '1180119946', 2, 38, 29.25),
  student('غدير أحمد حسن الجهني', 'Ghadeer Ahmed Hassan Al-Juhani', '1191028057', 2, 43.5, 40),
  student('لجين بندر عبدالله الزهراني', 'Lujain Bandar Abdullah Al-Zahrani', '1101937168', 2, 22, 24.5),
  student('أثير يوسف مساعد العسيري', 'Atheer Yousef Musaed Al-Asiri', '1112846279', 2, 33.75, 36.5),
  student('رهف منصور عايض القحطاني', 'Rahaf Mansour Ayedh Al-Qahtani', '1123755380', 3, 40.5, 45.5),
  student('وعد عادل سالم الغامدي', 'Waad Adel Salem Al-Ghamdi', '1134664491', 3, 31.25, 26),
  student('مها إبراهيم عبدالكريم التميمي', 'Maha Ibrahim Abdulkarim Al-Tamimi', '1145573502', 3, 46.25, 43),
  student('العنود مشعل راشد الدوسري', 'Alanoud Mishal Rashed Al-Dosari', '1156482613', 3, 37.5, 39),
  student('ليان عمر سليمان الشهراني', 'Layan Omar Sulaiman Al-Shahrani', '1167391724', 3, 24.75, 18.5),
  student('بشاير حمود مبارك الرويلي', 'Bashayer Hamoud Mubarak Al-Ruwaili', '1178200835', 3, 34.5, 41.5),
]
