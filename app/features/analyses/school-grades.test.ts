import { describe, expect, it } from 'vitest'
import { classroomNumber, compareClassrooms, compareGrades, gradeRank } from './school-grades.ts'

describe('gradeRank', () => {
  it('recognises Arabic grade names', () => {
    const names = [
      'الأول الابتدائي',
      'الثاني الابتدائي',
      'الثالث الابتدائي',
      'الرابع الابتدائي',
      'الخامس الابتدائي',
      'السادس الابتدائي',
      'الأول المتوسط',
      'الثاني المتوسط',
      'الثالث المتوسط',
      'الأول الثانوي',
      'الثاني الثانوي',
      'الثالث الثانوي',
    ]
    expect(names.map(gradeRank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
  })

  it('recognises other Arabic spellings', () => {
    expect(gradeRank('الصف الأول المتوسط')).toBe(7)
    expect(gradeRank('أول متوسط')).toBe(7)
    expect(gradeRank('ثالث ثانوي')).toBe(12)
    expect(gradeRank('الصف السابع')).toBe(7)
    expect(gradeRank('الحادي عشر')).toBe(11)
    expect(gradeRank('الصف الثاني عشر')).toBe(12)
    expect(gradeRank('الصف ٨')).toBe(8)
    expect(gradeRank('الأولى الثانوية')).toBe(10)
  })

  it('recognises English grade names', () => {
    expect(gradeRank('Grade 7')).toBe(7)
    expect(gradeRank('grade 12')).toBe(12)
    expect(gradeRank('First intermediate')).toBe(7)
    expect(gradeRank('Third Secondary')).toBe(12)
    expect(gradeRank('Second primary')).toBe(2)
    expect(gradeRank('7th grade')).toBe(7)
    expect(gradeRank('10')).toBe(10)
  })

  it('leaves unknown names unranked', () => {
    expect(gradeRank('روضة')).toBeNull()
    expect(gradeRank('Kindergarten')).toBeNull()
    expect(gradeRank('Grade 13')).toBeNull()
    expect(gradeRank('الرابع المتوسط')).toBeNull()
    expect(gradeRank('')).toBeNull()
  })
})

describe('order', () => {
  it('puts grades in school order, unknown grades after them by name', () => {
    const grades = ['الثالث الثانوي', 'Grade 8', 'زاي', 'الأول المتوسط', 'ألف', 'الأول الابتدائي']
    expect([...grades].sort(compareGrades)).toEqual(['الأول الابتدائي', 'الأول المتوسط', 'Grade 8', 'الثالث الثانوي', 'ألف', 'زاي'])
  })

  it('orders classrooms by grade, then by number (2 before 10), then by name', () => {
    const rooms = [
      { grade: 'الثاني المتوسط', classroom: '1' },
      { grade: 'الأول المتوسط', classroom: '10' },
      { grade: 'الأول المتوسط', classroom: 'ب' },
      { grade: 'الأول المتوسط', classroom: '٢' },
      { grade: 'الأول المتوسط', classroom: 'أ' },
    ]
    expect([...rooms].sort(compareClassrooms).map((r) => `${r.grade}/${r.classroom}`)).toEqual([
      'الأول المتوسط/٢',
      'الأول المتوسط/10',
      'الأول المتوسط/أ',
      'الأول المتوسط/ب',
      'الثاني المتوسط/1',
    ])
  })

  it('reads classroom numbers', () => {
    expect(classroomNumber('2')).toBe(2)
    expect(classroomNumber('١٢')).toBe(12)
    expect(classroomNumber('3/أ')).toBe(3)
    expect(classroomNumber('أ')).toBeNull()
  })
})
