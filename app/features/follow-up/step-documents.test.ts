import { describe, expect, it } from 'vitest'
import type { StudentAbsence, StudentFigures } from '#app/features/absence/index.ts'
import { ladderPresets } from './ladder.ts'
import { letterDatesShown, letterDay, lettersData } from './letters-pdf.server.ts'
import { lettersAtStep, studentsPerStep } from './step-documents.ts'

// Which students a step's letters are for, in which order, with which dates: built from students
// written here, the expectations worked out by hand on the standard ladder (3, 5, 10, 15, 25).

const absence = (date: string, type: StudentAbsence['type']): StudentAbsence => ({
  date,
  hijri: '',
  weekday: new Date(`${date}T12:00:00Z`).getUTCDay(),
  type,
})

function student(name: string, grade: string, classroom: string, unexcused: number, extra: Partial<StudentFigures> = {}): StudentFigures {
  return {
    name,
    studentId: `10000000${unexcused}`,
    grade,
    classroom,
    section: 'عام',
    system: 'نهاري',
    records: 20,
    present: 20 - unexcused,
    excused: 0,
    unexcused,
    late: 0,
    absenceRate: (100 * unexcused) / 20,
    warningLevel: 0,
    ...extra,
  }
}

const first = 'الأول المتوسط'
const second = 'الثاني المتوسط'
const standard = ladderPresets.standard

// Saved in name order, as an analysis keeps them; the letters go by classroom first.
const students = [
  student('بدر عمر', first, '2', 3),
  student('خالد سعد', second, '1', 4),
  student('زياد علي', first, '1', 2),
  student('سامي فهد', first, '1', 3),
  student('عادل ناصر', first, '1', 4),
  student('فارس هادي', second, '1', 5),
  student('ماجد سالم', first, '10', 25),
  student('ياسر حمد', first, '2', 24),
]

describe('lettersAtStep', () => {
  it('takes the students who reached the step and not the next: exactly 3 days is step 0, 2 days no step, 5 days step 1', () => {
    // Step 0 (3–4 days): سامي 3, عادل 4 (first 1), بدر 3 (first 2), خالد 4 (second 1); زياد has 2.
    expect(lettersAtStep(students, standard, 0).map((s) => s.name)).toEqual(['سامي فهد', 'عادل ناصر', 'بدر عمر', 'خالد سعد'])
    expect(lettersAtStep(students, standard, 1).map((s) => s.name)).toEqual(['فارس هادي'])
    // 24 days is still the referral (15–24), 25 the change of enrolment.
    expect(lettersAtStep(students, standard, 3).map((s) => s.name)).toEqual(['ياسر حمد'])
    expect(lettersAtStep(students, standard, 4).map((s) => s.name)).toEqual(['ماجد سالم'])
    expect(lettersAtStep(students, standard, 2)).toEqual([])
  })

  it('orders by grade, then classroom number (2 before 10), then name', () => {
    const all = [0, 1, 2, 3, 4].flatMap((step) => lettersAtStep(students, ladderPresets.short, step))
    // Short preset (10, 15, 20): only ماجد (25) and ياسر (24) reach it, both at step 2.
    expect(all.map((s) => `${s.grade} ${s.classroom} ${s.name}`)).toEqual([`${first} 2 ياسر حمد`, `${first} 10 ماجد سالم`])
  })

  it('keeps one classroom when asked, by its label or its number alone', () => {
    expect(lettersAtStep(students, standard, 0, `${first} / 1`).map((s) => s.name)).toEqual(['سامي فهد', 'عادل ناصر'])
    expect(lettersAtStep(students, standard, 0, '2').map((s) => s.name)).toEqual(['بدر عمر'])
    expect(lettersAtStep(students, standard, 0, '  ').map((s) => s.name)).toHaveLength(4)
    expect(lettersAtStep(students, standard, 0, `${second} / 9`)).toEqual([])
  })

  it('lists the days of unexcused absence only, oldest first, and none for a totals file', () => {
    const daily = student('تركي خالد', first, '1', 3, {
      excused: 1,
      absences: [
        absence('2025-09-08', 'excused'),
        absence('2025-09-09', 'unexcused'),
        absence('2025-09-14', 'unexcused'),
        absence('2025-09-18', 'unexcused'),
      ],
    })
    const [letter] = lettersAtStep([daily], standard, 0)
    expect(letter?.unexcusedDays?.map((d) => d.date)).toEqual(['2025-09-09', '2025-09-14', '2025-09-18'])
    expect(lettersAtStep([student('سلطان فهد', first, '1', 3)], standard, 0)[0]?.unexcusedDays).toBeNull()
  })
})

describe('studentsPerStep', () => {
  it('counts each step and names its classrooms in school order, from how many students of a classroom have each number of days', () => {
    const row = (grade: string, classroom: string, unexcused: number, count: number) => ({ grade, classroom, unexcused, students: count })
    // 2 days (none) ×4; step 0: 3 days ×2 in second 1, 4 days ×1 in first 10, 3 days ×1 in first 2;
    // step 1: 9 days ×1 in first 2; step 4: 30 days ×2 in first 2.
    const tally = [
      row(first, '1', 2, 4),
      row(second, '1', 3, 2),
      row(first, '10', 4, 1),
      row(first, '2', 3, 1),
      row(first, '2', 9, 1),
      row(first, '2', 30, 2),
    ]
    expect(studentsPerStep(tally, standard)).toEqual([
      { students: 4, classrooms: [`${first} / 2`, `${first} / 10`, `${second} / 1`] },
      { students: 1, classrooms: [`${first} / 2`] },
      { students: 0, classrooms: [] },
      { students: 0, classrooms: [] },
      { students: 2, classrooms: [`${first} / 2`] },
    ])
    expect(studentsPerStep([], ladderPresets.short)).toEqual([0, 0, 0].map(() => ({ students: 0, classrooms: [] })))
  })
})

describe('letterDay', () => {
  // Sunday 7 September 2025 was 15 Rabiʻ al-Awwal 1447 (Umm al-Qura), so Tuesday the 9th is the 17th.
  it('writes a day in both calendars, in words, in each language', () => {
    expect(letterDay('en', '2025-09-09')).toEqual({ weekday: 'Tuesday', hijri: '17 Rabiʻ I 1447 AH', gregorian: '9 September 2025' })
    expect(letterDay('ar', '2025-09-09')).toEqual({ weekday: 'الثلاثاء', hijri: '17 ربيع الأول 1447 هـ', gregorian: '9 سبتمبر 2025' })
    // Across a Hijri month: 23 September 2025 was 1 Rabiʻ al-Thani 1447.
    expect(letterDay('ar', '2025-09-23').hijri).toBe('1 ربيع الآخر 1447 هـ')
  })
})

describe('lettersData', () => {
  const school = {
    schoolName: 'متوسطة عمر بن الخطاب',
    educationOffice: null,
    principalName: 'سعد العتيبي',
    counsellorName: null,
    students: 'boys' as const,
  }
  const many = student('ماجد سالم', first, '1', 23, {
    absences: Array.from({ length: 23 }, (_, i) => absence(new Date(Date.UTC(2025, 8, 7 + i)).toISOString().slice(0, 10), 'unexcused')),
  })

  it('gives each student a letter with the step’s title and text, the school details or a line for them, and the signers', () => {
    const data = lettersData({
      lang: 'ar',
      document: 'counsellorReferral',
      students: lettersAtStep([many, student('فهد عمر', first, '1', 15)], standard, 3),
      school,
      logo: null,
      issuedOn: new Date('2025-09-25T09:00:00Z'),
    })
    expect(data.title).toBe('إحالة طالب إلى الموجّه الطلابي')
    expect(data.dir).toBe('rtl')
    expect(data.hasLogo).toBe(false)
    // No education office given: a line to write it on; the school's name as given.
    expect(data.header.start).toEqual([
      'المملكة العربية السعودية',
      'وزارة التعليم',
      'إدارة التعليم: ....................',
      school.schoolName,
    ])
    // 25 September 2025 was 3 Rabiʻ al-Thani 1447.
    expect(data.header.end[0]).toBe('التاريخ: 3 ربيع الآخر 1447 هـ')
    expect(data.signers.map((s) => s.name)).toEqual([null, null, 'سعد العتيبي'])
    expect(data.letters.map((l) => l.footer)).toEqual(['الطالب 1 من 2', 'الطالب 2 من 2'])
    // فهد before ماجد (name order in one classroom); the counsellor's name missing: a line.
    expect(data.letters[0]?.salutation).toBe('المكرم الموجّه الطلابي: ....................')
    expect(data.letters[0]?.paragraphs[1]).toContain('فهد عمر')
    expect(data.letters[0]?.paragraphs[1]).toContain(`${first} الفصل 1`)
  })

  it('lists at most 20 days on a letter and counts the rest, and says when the file gave no dates', () => {
    const data = lettersData({
      lang: 'en',
      document: 'secondWarning',
      students: [...lettersAtStep([many], standard, 3), ...lettersAtStep([student('Fahd Omar', first, '1', 6)], standard, 1)],
      school,
      logo: new Uint8Array([1]),
    })
    const [daily, totals] = data.letters
    expect(letterDatesShown).toBe(20)
    expect(daily?.dates).toHaveLength(20)
    expect(daily?.dates?.[0]).toEqual(['1', 'Sunday', '15 Rabiʻ I 1447 AH', '7 September 2025'])
    expect(daily?.more).toBe('And 3 more days in the absence record.')
    expect(daily?.facts.find((f) => f.label === 'Days absent without excuse')?.value).toBe('23')
    expect(totals?.dates).toBeNull()
    expect(totals?.noDates).toMatch(/without their dates/)
    expect(data.hasLogo).toBe(true)
  })

  it('writes a girls’ school’s letters for a daughter, to the counsellor and from the principal as women, in both languages', () => {
    const girls = { ...school, students: 'girls' as const }
    const sara = lettersAtStep([student('سارة علي', first, '1', 4)], standard, 0)
    const ar = lettersData({ lang: 'ar', document: 'firstWarning', students: sara, school: girls, logo: null })
    expect(ar.letters[0]?.salutation).toBe('المكرم ولي أمر الطالبة: سارة علي')
    expect(ar.letters[0]?.paragraphs[1]).toContain('ابنتكم المذكورة، المقيدة في')
    expect(ar.letters[0]?.paragraphs.join(' ')).not.toMatch(/ابنكم|الطالب\s/)
    expect(ar.letters[0]?.facts[0]?.label).toBe('اسم الطالبة')
    expect(ar.signers.map((s) => s.role)).toEqual(['ولي أمر الطالبة', 'الموجّهة الطلابية', 'مديرة المدرسة'])
    expect(ar.letters[0]?.footer).toBe('الطالبة 1 من 1')
    const referral = lettersData({ lang: 'ar', document: 'counsellorReferral', students: sara, school: girls, logo: null })
    expect(referral.title).toBe('إحالة طالبة إلى الموجّهة الطلابية')
    const en = lettersData({ lang: 'en', document: 'secondWarning', students: sara, school: girls, logo: null })
    expect(en.letters[0]?.paragraphs.join(' ')).toContain('your daughter')
    expect(en.letters[0]?.paragraphs.join(' ')).not.toMatch(/\b(son|his|him)\b/)
    // A boys' school keeps the son.
    const boys = lettersData({ lang: 'en', document: 'secondWarning', students: sara, school, logo: null })
    expect(boys.letters[0]?.paragraphs.join(' ')).toContain('your son')
  })
})
