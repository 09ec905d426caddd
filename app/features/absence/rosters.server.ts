import { and, eq, inArray, sql } from 'drizzle-orm'
import { findAnalysis } from '#app/features/analyses/index.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { analyses, analysisEntries } from '#app/platform/db/schema.ts'
import { loadAbsence, STUDENTS } from './export.server.ts'

// Who was in each of a teacher's absence analyses, and with how many unexcused days: what the
// follow-up register matches students across uploads with (docs/follow-up.md). Reads a few fields
// of each student, never the days missed.

/** An absence analysis as a roster: its last day (the period's end, else the last date of its records). */
export interface AbsenceRosterHead {
  readonly id: string
  readonly title: string
  readonly createdAt: Date
  /** ISO date; null for an analysis with neither a period nor dates. */
  readonly lastDay: string | null
}

export interface RosterStudent {
  readonly name: string
  readonly studentId: string | null
  readonly grade: string
  readonly classroom: string
  readonly unexcused: number
}

export type AbsenceRoster = AbsenceRosterHead & { readonly students: readonly RosterStudent[] }

export interface AbsenceRostersOptions {
  readonly db: Db
  readonly userId: string
  /** Which analyses to read the students of (all when not given), from their heads. */
  readonly keep?: (head: AbsenceRosterHead) => boolean
}

/** The teacher's absence analyses, oldest first, without their students (a few fields of each row). */
export async function absenceRosterHeads({ db, userId }: Pick<AbsenceRostersOptions, 'db' | 'userId'>) {
  const dates = sql`case when jsonb_typeof(${analyses.report}->'byDate') = 'array' then ${analyses.report}->'byDate' else '[]'::jsonb end`
  return db
    .select({
      id: analyses.id,
      title: analyses.title,
      createdAt: analyses.createdAt,
      lastDay: sql<
        string | null
      >`coalesce(${analyses.report}->'recognised'->'period'->>'toDate', (select max(d->>'date') from jsonb_array_elements(${dates}) d))`,
      hasEntries: sql<boolean>`(jsonb_typeof(${analyses.records}) = 'object' and ${analyses.records} ? 'entries')`,
    })
    .from(analyses)
    .where(and(eq(analyses.userId, userId), eq(analyses.kind, 'absence'), eq(analyses.complete, true)))
    .orderBy(analyses.createdAt, analyses.id)
}

/** The teacher's absence analyses with their students (name, ID, grade, classroom, unexcused days), oldest first. */
export async function absenceRosters({ db, userId, keep = () => true }: AbsenceRostersOptions): Promise<AbsenceRoster[]> {
  const heads = await absenceRosterHeads({ db, userId })
  const kept = heads.filter((h) => keep(h))
  const withEntries = kept.filter((h) => h.hasEntries).map((h) => h.id)
  const byAnalysis = new Map<string, RosterStudent[]>()
  if (withEntries.length) {
    const rows = await db
      .select({
        analysisId: analysisEntries.analysisId,
        name: sql<string>`${analysisEntries.data}->>'name'`,
        studentId: sql<string | null>`${analysisEntries.data}->>'studentId'`,
        grade: sql<string>`${analysisEntries.data}->>'grade'`,
        classroom: sql<string>`${analysisEntries.data}->>'classroom'`,
        unexcused: sql<number>`(${analysisEntries.data}->>'unexcused')::int`,
      })
      .from(analysisEntries)
      .where(and(inArray(analysisEntries.analysisId, withEntries), eq(analysisEntries.part, STUDENTS)))
      .orderBy(analysisEntries.analysisId, analysisEntries.position)
    for (const { analysisId, unexcused, ...student } of rows) {
      const list = byAnalysis.get(analysisId) ?? []
      list.push({ ...student, unexcused: Number(unexcused) })
      byAnalysis.set(analysisId, list)
    }
  }
  const rosters: AbsenceRoster[] = []
  for (const head of kept) {
    let students = byAnalysis.get(head.id)
    if (!head.hasEntries) {
      // Saved before entries existed: its students are read whole from its row.
      const stored = await findAnalysis({ db, userId, id: head.id })
      students =
        stored?.kind === 'absence'
          ? (await loadAbsence({ db, stored })).students.map((s) => ({
              name: s.name,
              studentId: s.studentId,
              grade: s.grade,
              classroom: s.classroom,
              unexcused: s.unexcused,
            }))
          : []
    }
    rosters.push({ id: head.id, title: head.title, createdAt: head.createdAt, lastDay: head.lastDay, students: students ?? [] })
  }
  return rosters
}
