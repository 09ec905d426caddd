import { sql } from 'drizzle-orm'
import { analysisEntriesByName } from '#app/features/analyses/index.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { analysisEntries } from '#app/platform/db/schema.ts'
import type { StudentFigures } from './analyse-absence.ts'
import { hasEntries, loadAbsence, STUDENTS, type StoredAbsence } from './export.server.ts'
import { keyMatches, nameKey, searchKey } from './search-students.ts'

/**
 * A saved analysis' students read for what follows them across uploads (issue 18: trends, the
 * comparison, the messages per step), each read as little as it needs: the figures only (never
 * the days missed nor the guardian's number) for every student, or the whole records of a range
 * of unexcused days, a page at a time.
 */

/** A student's identity and counts, without the days missed nor the guardian's number. */
export type StudentLine = Pick<StudentFigures, 'name' | 'studentId' | 'grade' | 'classroom' | 'records' | 'excused' | 'unexcused'>

/** Every student of a saved analysis (at its stored school days) as lines, in name order. */
export async function studentLines({ db, stored }: { db: Db; stored: StoredAbsence }): Promise<StudentLine[]> {
  if (!hasEntries(stored.records)) return (await loadAbsence({ db, stored })).students.map(lineOf)
  // Each entry's JSON opened once for the five fields (jsonb_to_record), never its list of days.
  const query = sql`
    select s.name, s."studentId", s.grade, s.classroom, s.records, s.excused, s.unexcused
    from ${analysisEntries} e,
      lateral jsonb_to_record(e.data) as s(name text, "studentId" text, grade text, classroom text, records int, excused int, unexcused int)
    where e.analysis_id = ${stored.id} and e.part = ${STUDENTS}
    order by e.position`
  const { rows } = (await db.execute(query)) as unknown as { rows: StudentLine[] }
  return rows.map((r) => ({
    name: r.name,
    studentId: r.studentId ?? null,
    grade: r.grade,
    classroom: r.classroom,
    records: Number(r.records),
    excused: Number(r.excused),
    unexcused: Number(r.unexcused),
  }))
}

function lineOf(s: StudentFigures): StudentLine {
  return {
    name: s.name,
    studentId: s.studentId,
    grade: s.grade,
    classroom: s.classroom,
    records: s.records,
    excused: s.excused,
    unexcused: s.unexcused,
  }
}

export interface UnexcusedRangeOptions {
  readonly db: Db
  readonly stored: StoredAbsence
  /** Unexcused days from `min` (included) to `max` (excluded; null: no end). */
  readonly min: number
  readonly max: number | null
  /** The most records read; `total` still counts them all. */
  readonly limit: number
}

/**
 * The students whose unexcused days are in a range (a ladder's step), most days first then by
 * name, with their whole records (the days missed, the guardian's number: a message needs them),
 * at most `limit` of them, and how many there are.
 */
export async function studentsByUnexcused({ db, stored, min, max, limit }: UnexcusedRangeOptions): Promise<{
  students: StudentFigures[]
  total: number
}> {
  const inRange = (s: { unexcused: number }) => s.unexcused >= min && (max === null || s.unexcused < max)
  if (!hasEntries(stored.records)) {
    const all = (await loadAbsence({ db, stored })).students.filter(inRange)
    const sorted = all.toSorted((a, b) => b.unexcused - a.unexcused || a.name.localeCompare(b.name, 'ar'))
    return { students: sorted.slice(0, limit), total: all.length }
  }
  const unexcused = sql`((${analysisEntries.data}->>'unexcused')::int)`
  const where = sql`${analysisEntries.analysisId} = ${stored.id} and ${analysisEntries.part} = ${STUDENTS} and ${unexcused} >= ${min}${
    max === null ? sql`` : sql` and ${unexcused} < ${max}`
  }`
  const [counted] = (
    (await db.execute(sql`select count(*)::int as total from ${analysisEntries} where ${where}`)) as unknown as {
      rows: { total: number }[]
    }
  ).rows
  const rows = await db
    .select({ data: analysisEntries.data })
    .from(analysisEntries)
    .where(where)
    .orderBy(sql`${unexcused} desc`, analysisEntries.position)
    .limit(limit)
  return { students: rows.map((r) => r.data as StudentFigures), total: Number(counted?.total ?? 0) }
}

/**
 * The students of a saved analysis whose name starts with the words of `q` (the report's search
 * rules: three words at least, else a DomainError `absence.search.tooShort`), through the name
 * index; none found is an empty list.
 */
export async function studentsNamed({ db, stored, q }: { db: Db; stored: StoredAbsence; q: string }): Promise<StudentFigures[]> {
  const key = searchKey(q)
  if (!hasEntries(stored.records)) return (await loadAbsence({ db, stored })).students.filter((s) => keyMatches(nameKey(s.name), key))
  return (await analysisEntriesByName({ db, analysisId: stored.id, part: STUDENTS, key })) as StudentFigures[]
}

/** studentsNamed for an analysis whose students are entries, by its id alone (its teacher's, checked by the caller). */
export async function entriesNamed({ db, analysisId, q }: { db: Db; analysisId: string; q: string }): Promise<StudentFigures[]> {
  return (await analysisEntriesByName({ db, analysisId, part: STUDENTS, key: searchKey(q) })) as StudentFigures[]
}
