import { describe, expect, it } from 'vitest'
import { DomainError } from '#app/lib/errors.ts'
import { searchStudents } from './search-students.ts'

const students = [
  { name: 'مُحمّد أحمد علي الغامدي', studentId: '1' },
  { name: 'محمد أحمد علي', studentId: '2' },
  { name: 'محمد أحمد عليان الزهراني', studentId: '3' },
  { name: 'فاطمة عبدالله سعد القحطاني', studentId: '4' },
  { name: 'Sara Ahmed Ali Smith', studentId: '5' },
]

function failure(run: () => unknown): DomainError {
  try {
    run()
  } catch (error) {
    if (error instanceof DomainError) return error
    throw error
  }
  throw new Error('expected a DomainError')
}

describe('searchStudents', () => {
  it('finds the students whose normalised name starts with the three words, in order', () => {
    expect(searchStudents(students, 'محمد احمد علي').map((s) => s.studentId)).toEqual(['1', '2'])
    expect(searchStudents(students, '  مُحَمَّد   أحمد  علي  الغامدي ').map((s) => s.studentId)).toEqual(['1'])
  })

  it('matches whole words only (علي does not find عليان)', () => {
    expect(searchStudents(students, 'محمد أحمد عليان').map((s) => s.studentId)).toEqual(['3'])
  })

  it('matches ta marbuta and heh, alef forms, Latin case', () => {
    expect(searchStudents(students, 'فاطمه عبدالله سعد').map((s) => s.studentId)).toEqual(['4'])
    expect(searchStudents(students, 'sara AHMED ali').map((s) => s.studentId)).toEqual(['5'])
  })

  it('needs a full name: at least three words', () => {
    for (const term of ['', '   ', 'محمد', 'محمد أحمد', ' محمد \u064B أحمد '])
      expect(failure(() => searchStudents(students, term))).toMatchObject({ status: 400, messageKey: 'absence.search.tooShort' })
  })

  it('says when nobody matches (words out of order, a missing word)', () => {
    expect(failure(() => searchStudents(students, 'أحمد محمد علي'))).toMatchObject({ status: 404, messageKey: 'absence.search.notFound' })
    expect(failure(() => searchStudents(students, 'محمد علي الغامدي'))).toMatchObject({
      status: 404,
      messageKey: 'absence.search.notFound',
    })
    expect(failure(() => searchStudents([], 'محمد أحمد علي'))).toMatchObject({ status: 404 })
  })

  it('keeps the students as given (their figures come along)', () => {
    const [found] = searchStudents(students, 'محمد احمد علي الغامدي')
    expect(found).toBe(students[0])
  })
})
