import { describe, expect, it } from 'vitest'
import type { CellValue } from '#app/platform/xlsx/types.ts'
import { analyseGrades } from './analyse-grades.ts'

// Noor's band summary (students per band for each subject, one classroom per sheet), built by
// hand: a subject nobody in the classroom took, and a subject written twice.

const sheet = (rows: CellValue[][]) => ({
  container: 'xlsx' as const,
  sheets: [{ name: 'الفصل', rows: rows.map((cells, i) => ({ row: i + 1, cells })), merges: [] }],
})

describe('a band summary', () => {
  it('gives a subject whose counts are all zero its counts and no shares (it once failed the upload)', () => {
    const analysis = analyseGrades(
      sheet([
        ['الصف', 'الأول المتوسط'],
        ['الفصل', '1'],
        ['المادة', 'ممتاز', 'جيد جدا', 'جيد', 'مقبول', 'ضعيف'],
        ['الرياضيات', 5, 4, 3, 2, 1],
        ['العلوم', 0, 0, 0, 0, 0],
      ]),
    )
    const science = analysis.report.bandSubjects?.find((s) => s.subject === 'العلوم')
    expect(science?.summary.students).toBe(0)
    expect(science?.summary.bands.map((b) => [b.count, b.percentage])).toEqual([
      [0, null],
      [0, null],
      [0, null],
      [0, null],
      [0, null],
    ])
    const maths = analysis.report.bandSubjects?.find((s) => s.subject === 'الرياضيات')
    expect(maths?.summary.bands.map((b) => b.percentage)).toEqual([33.33, 26.67, 20, 13.33, 6.67])
  })

  it('skips a subject written twice for one classroom, naming the row it was first read on', () => {
    const analysis = analyseGrades(
      sheet([
        ['الصف', 'الأول المتوسط'],
        ['الفصل', '1'],
        ['المادة', 'ممتاز', 'جيد جدا', 'جيد', 'مقبول', 'ضعيف'],
        ['الرياضيات', 5, 4, 3, 2, 1],
        ['العلوم', 1, 1, 1, 1, 1],
        ['الرياضيات', 1, 1, 1, 1, 1],
      ]),
    )
    expect(analysis.report.skipped).toEqual([
      expect.objectContaining({ row: 6, reason: expect.objectContaining({ key: 'grades.skip.duplicate', values: { firstRow: 4 } }) }),
    ])
    expect(analysis.report.bandSubjects?.find((s) => s.subject === 'الرياضيات')?.summary.students).toBe(15)
  })
})
