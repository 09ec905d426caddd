// The Noor-like fixtures (tests/fixtures/noor) with what they
// must produce, read as an upload is, and compared field by field with what they state.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { WorkbookGrid } from '#app/platform/workbook-reading/grid.ts'
import { readWorkbook } from '#app/platform/workbook-reading/read-workbook.server.ts'
import { byJson, project, shapeOf, type Json } from './expected-json.ts'

/** Where the Noor-like fixtures are (tests/fixtures/noor). */
export const noorFixtureDir = path.resolve(import.meta.dirname, 'fixtures/noor')

export interface NoorFixture {
  readonly file: string
  readonly path: string
  readonly expected: Record<string, Json>
  /** The upload's `school_days`, where the fixture says it is uploaded with it. */
  readonly schoolDays?: number
}

/** The fixtures of one tool (their names start with `absence-` or `grades-`). */
export function noorFixtures(tool: 'absence' | 'grades', dir = noorFixtureDir): NoorFixture[] {
  return readdirSync(dir)
    .filter((file) => file.startsWith(`${tool}-`) && /\.(xlsx|xls|csv)$/.test(file))
    .map((file) => {
      const expected = JSON.parse(readFileSync(path.join(dir, file.replace(/\.(xlsx|xls|csv)$/, '.expected.json')), 'utf8')) as Record<
        string,
        Json
      >
      const uploadWith = expected.uploadWith as { school_days?: number } | undefined
      return {
        file,
        path: path.join(dir, file),
        expected,
        ...(uploadWith?.school_days !== undefined && { schoolDays: uploadWith.school_days }),
      }
    })
}

/** A fixture's cell grid, read by the project's reader as an upload is. */
export function fixtureGrid(file: string): WorkbookGrid {
  return readWorkbook(readFileSync(file), { maxUncompressedBytes: 200 << 20, maxRows: 500_040, maxSheets: 1000, timeBudgetMs: 30_000 })
}

/** The fields the fixture states (not its notes), lists whose order it does not state compared as sets. */
export function comparable(actual: unknown, expected: Record<string, Json>, unordered: readonly string[]) {
  const stated = Object.fromEntries(Object.entries(expected).filter(([key]) => key !== 'note' && key !== 'uploadWith')) as Record<
    string,
    Json
  >
  const projected = project(actual, shapeOf(stated)) as Record<string, unknown>
  const sets = (value: Record<string, unknown>) => ({
    ...value,
    ...Object.fromEntries(unordered.filter((key) => key in value).map((key) => [key, byJson(value[key])])),
  })
  return { actual: sets(projected), expected: sets(stated) }
}
