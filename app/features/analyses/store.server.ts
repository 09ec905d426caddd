import { and, desc, eq } from 'drizzle-orm'
import type { AbsenceStored } from '#app/features/absence/kind.ts'
import type { GradesStored } from '#app/features/grades/kind.ts'
import { isUuid } from '#app/lib/ids.ts'
import { withoutBidiControls } from '#app/lib/plain-text.ts'
import type { Db } from '#app/server/db/client.server.ts'
import { analyses, type AnalysisKind } from '#app/server/db/schema.ts'

export type SaveAnalysisInput = {
  userId: string
  kind: AnalysisKind
  title: string
  meta: Record<string, string>
  headline: Record<string, number | string | null>
  report: unknown
  records: unknown
}

export type AnalysisSummary = {
  id: string
  kind: AnalysisKind
  title: string
  meta: Record<string, string>
  headline: Record<string, number | string | null>
  createdAt: Date
  updatedAt: Date
}

export const TITLE_MAX = 200

/** One insert for the whole analysis: the report and every record travel as two JSON values. */
export async function saveAnalysis(db: Db, input: SaveAnalysisInput): Promise<{ id: string; createdAt: Date }> {
  const [row] = await db
    .insert(analyses)
    .values({ ...input, title: cleanTitle(input.title) })
    .returning({ id: analyses.id, createdAt: analyses.createdAt })
  if (!row) throw new Error('analysis insert returned no row')
  return row
}

/** The teacher's analyses, newest first, without their reports. */
export async function listAnalyses(db: Db, userId: string, kind?: AnalysisKind): Promise<AnalysisSummary[]> {
  return db
    .select({
      id: analyses.id,
      kind: analyses.kind,
      title: analyses.title,
      meta: analyses.meta,
      headline: analyses.headline,
      createdAt: analyses.createdAt,
      updatedAt: analyses.updatedAt,
    })
    .from(analyses)
    .where(kind ? and(eq(analyses.userId, userId), eq(analyses.kind, kind)) : eq(analyses.userId, userId))
    .orderBy(desc(analyses.createdAt), desc(analyses.id))
}

/** A saved analysis as its kind stores it: `kind` tells which report and records it holds. */
export type StoredAnalysis = Omit<typeof analyses.$inferSelect, 'kind' | 'report' | 'records'> & (AbsenceStored | GradesStored)

/**
 * One analysis of this teacher; another teacher's id, or a malformed one, is simply not found.
 * The JSON comes back as the kind's own types: this app wrote it (saveAnalysis), and this is
 * the one place its shape is taken on trust.
 */
export async function findAnalysis(db: Db, userId: string, id: string): Promise<StoredAnalysis | null> {
  if (!isUuid(id)) return null
  const [row] = await db
    .select()
    .from(analyses)
    .where(and(eq(analyses.id, id), eq(analyses.userId, userId)))
    .limit(1)
  return (row as StoredAnalysis | undefined) ?? null
}

export async function renameAnalysis(db: Db, userId: string, id: string, title: string): Promise<boolean> {
  if (!isUuid(id)) return false
  const changed = await db
    .update(analyses)
    .set({ title: cleanTitle(title), updatedAt: new Date() })
    .where(and(eq(analyses.id, id), eq(analyses.userId, userId)))
    .returning({ id: analyses.id })
  return changed.length === 1
}

/** Deletes the analysis and with it every student record it held. */
export async function deleteAnalysis(db: Db, userId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false
  const gone = await db
    .delete(analyses)
    .where(and(eq(analyses.id, id), eq(analyses.userId, userId)))
    .returning({ id: analyses.id })
  return gone.length === 1
}

function cleanTitle(title: string): string {
  const clean = [...withoutBidiControls(title)].map((ch) => ((ch.codePointAt(0) ?? 0) < 32 || ch === '\u007f' ? ' ' : ch)).join('').replace(/\s+/g, ' ').trim()
  return (clean || '—').slice(0, TITLE_MAX)
}
