import { and, asc, desc, eq, gt, lt, or, sql } from 'drizzle-orm'
import type { AbsenceStored } from '#app/features/absence/kind.ts'
import type { GradesStored } from '#app/features/grades/kind.ts'
import { isUuid } from '#app/lib/ids.ts'
import { withoutBidiControls } from '#app/lib/plain-text.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { analyses, analysisEntries, type AnalysisKind } from '#app/platform/db/schema.ts'

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

/** One record of an analysis kept in its own row (see `analysisEntries`): `part` names its list. */
export interface AnalysisEntry {
  readonly part: number
  readonly nameKey?: string | null
  readonly warningLevel?: number | null
  readonly data: unknown
}

/** Rows per insert: small enough that one batch is a few milliseconds of the event loop's time. */
export const ENTRY_BATCH = 500

export type SaveAnalysisOptions = { db: Db; input: SaveAnalysisInput; entries?: Iterable<AnalysisEntry> }

/**
 * Saves an analysis: its row (report and what the kind keeps beside its entries), then its
 * entries in batches, each its own statement with a turn of the event loop between them, so
 * a 100,000-row upload never holds the process (nor, on PGlite, the one connection) for long.
 * Until the last batch is in, the analysis is unfinished: never listed or read, and deleted if
 * a batch fails (or swept, if the process died meanwhile).
 */
export async function saveAnalysis({ db, input, entries = [] }: SaveAnalysisOptions): Promise<{ id: string; createdAt: Date }> {
  const [row] = await db
    .insert(analyses)
    .values({ ...input, title: cleanTitle(input.title), complete: false })
    .returning({ id: analyses.id, createdAt: analyses.createdAt })
  if (!row) throw new Error('analysis insert returned no row')
  try {
    const positions = new Map<number, number>()
    let batch: Array<typeof analysisEntries.$inferInsert> = []
    const flush = async () => {
      if (batch.length === 0) return
      const values = batch
      batch = []
      await db.insert(analysisEntries).values(values)
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
    for (const entry of entries) {
      const position = positions.get(entry.part) ?? 0
      positions.set(entry.part, position + 1)
      batch.push({
        analysisId: row.id,
        part: entry.part,
        position,
        nameKey: entry.nameKey ?? null,
        warningLevel: entry.warningLevel ?? null,
        data: entry.data,
      })
      if (batch.length >= ENTRY_BATCH) await flush()
    }
    await flush()
    await db.update(analyses).set({ complete: true }).where(eq(analyses.id, row.id))
  } catch (error) {
    await db
      .delete(analyses)
      .where(eq(analyses.id, row.id))
      .catch(() => undefined)
    throw error
  }
  return row
}

export type SweepUnfinishedAnalysesOptions = { db: Db; olderThanMs: number; now?: Date }

/** Unfinished analyses older than `olderThanMs` (their upload's process died while storing): deleted. */
export async function sweepUnfinishedAnalyses({ db, olderThanMs, now = new Date() }: SweepUnfinishedAnalysesOptions): Promise<number> {
  const gone = await db
    .delete(analyses)
    .where(and(eq(analyses.complete, false), lt(analyses.createdAt, new Date(now.getTime() - olderThanMs))))
    .returning({ id: analyses.id })
  return gone.length
}

export type AnalysisEntryDataOptions = {
  db: Db
  analysisId: string
  part: number
  warned?: boolean
  /** With `warned`, also the entries with this many unexcused days or more: students at a follow-up step, which a teacher's ladder may start below the first warning. */
  unexcusedFrom?: number
}

/** Every entry of one list of an analysis (`warned`: only those with a warning), in order. The caller has found the analysis as its teacher's. */
export async function analysisEntryData({ db, analysisId, part, warned, unexcusedFrom }: AnalysisEntryDataOptions): Promise<unknown[]> {
  const atStep =
    unexcusedFrom !== undefined && Number.isFinite(unexcusedFrom)
      ? sql`(${analysisEntries.data}->>'unexcused')::int >= ${unexcusedFrom}`
      : undefined
  const rows = await db
    .select({ data: analysisEntries.data })
    .from(analysisEntries)
    .where(
      and(
        eq(analysisEntries.analysisId, analysisId),
        eq(analysisEntries.part, part),
        warned ? (atStep ? or(gt(analysisEntries.warningLevel, 0), atStep) : gt(analysisEntries.warningLevel, 0)) : undefined,
      ),
    )
    .orderBy(asc(analysisEntries.position))
  return rows.map((r) => r.data)
}

export type AnalysisEntriesByNameOptions = { db: Db; analysisId: string; part: number; key: string }

/**
 * The entries whose name key is `key` or starts with `key` and a space (whole words), in order:
 * a prefix search on the name index, reading only the rows found.
 */
export async function analysisEntriesByName({ db, analysisId, part, key }: AnalysisEntriesByNameOptions): Promise<unknown[]> {
  const prefix = `${key.replace(/[\\%_]/g, (ch) => `\\${ch}`)} %`
  const rows = await db
    .select({ data: analysisEntries.data })
    .from(analysisEntries)
    .where(
      and(
        eq(analysisEntries.analysisId, analysisId),
        eq(analysisEntries.part, part),
        or(eq(analysisEntries.nameKey, key), sql`${analysisEntries.nameKey} like ${prefix} escape '\\'`),
      ),
    )
    .orderBy(asc(analysisEntries.position))
  return rows.map((r) => r.data)
}

export type ListAnalysesOptions = { db: Db; userId: string; kind?: AnalysisKind; limit?: number }

/** The teacher's analyses, newest first, without their reports; `limit` for a glance (her home shows the latest few). */
export async function listAnalyses({ db, userId, kind, limit }: ListAnalysesOptions): Promise<AnalysisSummary[]> {
  const query = db
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
    .where(and(eq(analyses.userId, userId), eq(analyses.complete, true), kind ? eq(analyses.kind, kind) : undefined))
    .orderBy(desc(analyses.createdAt), desc(analyses.id))
  return limit === undefined ? query : query.limit(limit)
}

/** A saved analysis as its kind stores it: `kind` tells which report and records it holds. */
export type StoredAnalysis = Omit<typeof analyses.$inferSelect, 'kind' | 'report' | 'records'> & (AbsenceStored | GradesStored)

export type FindAnalysisOptions = { db: Db; userId: string; id: string }

/**
 * One analysis of this teacher; another teacher's id, or a malformed one, is simply not found.
 * The JSON comes back as the kind's own types: this app wrote it (saveAnalysis), and this is
 * the one place its shape is taken on trust.
 */
export async function findAnalysis({ db, userId, id }: FindAnalysisOptions): Promise<StoredAnalysis | null> {
  if (!isUuid(id)) return null
  const [row] = await db
    .select()
    .from(analyses)
    .where(and(eq(analyses.id, id), eq(analyses.userId, userId), eq(analyses.complete, true)))
    .limit(1)
  return (row as StoredAnalysis | undefined) ?? null
}

export type RenameAnalysisOptions = { db: Db; userId: string; id: string; title: string }

export async function renameAnalysis({ db, userId, id, title }: RenameAnalysisOptions): Promise<boolean> {
  if (!isUuid(id)) return false
  const changed = await db
    .update(analyses)
    .set({ title: cleanTitle(title), updatedAt: new Date() })
    .where(and(eq(analyses.id, id), eq(analyses.userId, userId)))
    .returning({ id: analyses.id })
  return changed.length === 1
}

export type DeleteAnalysisOptions = { db: Db; userId: string; id: string }

/** Deletes the analysis and with it every student record it held. */
export async function deleteAnalysis({ db, userId, id }: DeleteAnalysisOptions): Promise<boolean> {
  if (!isUuid(id)) return false
  const gone = await db
    .delete(analyses)
    .where(and(eq(analyses.id, id), eq(analyses.userId, userId)))
    .returning({ id: analyses.id })
  return gone.length === 1
}

function cleanTitle(title: string): string {
  const clean = [...withoutBidiControls(title)]
    .map((ch) => ((ch.codePointAt(0) ?? 0) < 32 || ch === '\u007f' ? ' ' : ch))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
  return (clean || '—').slice(0, TITLE_MAX)
}
