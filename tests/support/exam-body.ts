// A test as the editor sends it, with no import of the app: the unit tests, the bench and the
// load scenarios build theirs from it.

/** A test with one question of every type, in Arabic, as the editor would send it. */
export function sampleExamBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'اختبار منتصف الفصل الدراسي الأول',
    school_name: 'مدرسة الأندلس الابتدائية',
    subject: 'العلوم',
    grade: 'الصف الخامس',
    date: '2026-11-22',
    duration_minutes: 45,
    info: 'أجب عن جميع الأسئلة الآتية.',
    show_student_name: true,
    questions: [
      {
        type: 'multiple_choice',
        text: 'أي الكواكب أقرب إلى الشمس؟',
        marks: 1,
        options: ['عطارد', 'الزهرة', 'الأرض', 'المريخ'],
        correct: 0,
      },
      { type: 'checkbox', text: 'اختر الثدييات:', marks: 2, options: ['الحوت', 'النسر', 'الجمل', 'السلحفاة'], correct: [0, 2] },
      { type: 'true_false', text: 'الماء يغلي عند 100 درجة مئوية عند مستوى سطح البحر.', marks: 1, correct: true },
      { type: 'essay', text: 'اشرح دورة الماء في الطبيعة.', marks: 4, lines: 5 },
      {
        type: 'matching',
        text: 'صل كل عضو بوظيفته:',
        marks: 3,
        pairs: [
          { left: 'القلب', right: 'ضخ الدم' },
          { left: 'الرئتان', right: 'تبادل الغازات' },
          { left: 'المعدة', right: 'هضم الطعام' },
        ],
      },
      { type: 'fill_blank', text: 'عاصمة المملكة العربية السعودية هي ___ وأكبر مدنها الساحلية ___.', marks: 2, answers: ['الرياض', 'جدة'] },
    ],
    ...overrides,
  }
}
