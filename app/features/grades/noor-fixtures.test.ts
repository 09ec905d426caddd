import { describe, expect, it } from 'vitest'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator } from '#app/i18n/translate.ts'
import { comparable, fixtureGrid, noorFixtures } from '#tests/noor-fixtures.ts'
import { analyseGrades, recomputeGrades, type GradesAnalysis } from './analyse-grades.ts'

// Noor's own grade exports (docs/noor-layouts.md): report cards, one sheet per student (with and
// without a maximum column), and the class band summary.

const en = createTranslator('en', getMessages('en', ['grades']))
const fixtures = noorFixtures('grades')

function asFixture(analysis: GradesAnalysis) {
  const { report } = analysis
  return {
    ...report,
    // A band summary's subjects are in the fixtures' `subjects`.
    subjects: report.bandSubjects ?? report.subjects,
    skipped: report.skipped.map(({ sheet, row, reason }) => ({
      ...(sheet !== undefined && { sheet }),
      row,
      reason: en.t(reason.key, reason.values),
    })),
  }
}

describe("Noor's grade exports", () => {
  it('are there: two kinds of report cards and a band summary', () => {
    expect(fixtures.map((f) => f.file).sort()).toEqual([
      'grades-band-summary.xlsx',
      'grades-middle-no-max.xlsx',
      'grades-report-cards.xlsx',
    ])
  })

  for (const fixture of fixtures) {
    it(`${fixture.file}: every figure and the recognised object of its expected.json`, () => {
      const { actual, expected } = comparable(asFixture(analyseGrades(fixtureGrid(fixture.path))), fixture.expected, [])
      expect(actual).toEqual(expected)
    })
  }

  it('report cards: one subject for الإنجليزية and الانجليزية, named as first spelled, `*` dropped, conduct and totals left out', () => {
    const cards = fixtures.find((f) => f.file === 'grades-report-cards.xlsx')
    expect.assert(cards)
    const { report } = analyseGrades(fixtureGrid(cards.path))
    const names = report.subjects.map((s) => s.subject)
    expect(names.filter((n) => n.includes('نجليزية'))).toEqual(['اللغة الإنجليزية 1-1'])
    expect(names).toContain('التفكير الناقد')
    for (const notSubject of ['السلوك', 'المواظبة', 'المجموع', 'المعدل', 'التقدير العام']) expect(names).not.toContain(notSubject)
  })

  it('a band summary keeps its counts whatever bands are asked for', () => {
    const summary = fixtures.find((f) => f.file === 'grades-band-summary.xlsx')
    expect.assert(summary)
    const analysis = analyseGrades(fixtureGrid(summary.path))
    expect(recomputeGrades(analysis.records, 'elementary').bandSubjects).toEqual(analysis.report.bandSubjects)
    expect(analysis.report.subjects).toEqual([])
  })
})
