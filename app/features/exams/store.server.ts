import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm'
import { DomainError } from '#app/lib/errors.ts'
import { isUuid } from '#app/lib/ids.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { examImages, exams } from '#app/platform/db/schema.ts'
import { discardFiles, type FileStore } from '#app/platform/files.server.ts'
import { EXAM_LIMITS, totalMarks, type ExamInput, type Question } from './schemas.ts'

// A teacher's tests. Every read and write names the owner: another teacher's id (or a malformed
// one) is simply not found. Images are shared between a teacher's tests (a duplicated test keeps
// them) and go once the last test using them changes or goes.

type ExamRow = typeof exams.$inferSelect
export type ExamRecord = Omit<ExamRow, 'questions'> & { questions: Question[] }

export type ExamSummary = Pick<
  ExamRecord,
  'id' | 'title' | 'subject' | 'grade' | 'date' | 'questionCount' | 'totalMarks' | 'createdAt' | 'updatedAt'
>

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

const asRecord = (row: ExamRow): ExamRecord => ({ ...row, questions: row.questions as Question[] })

function columnsOf(input: ExamInput) {
  return {
    title: input.title,
    schoolName: input.school_name,
    subject: input.subject,
    grade: input.grade,
    date: input.date,
    durationMinutes: input.duration_minutes,
    info: input.info,
    showStudentName: input.show_student_name,
    questions: input.questions,
    questionCount: input.questions.length,
    totalMarks: totalMarks(input.questions),
  }
}

const imagesOf = (questions: readonly Question[]) => [...new Set(questions.flatMap((q) => (q.image ? [q.image] : [])))]

/**
 * Every image a test refers to must be one of the teacher's own; they are share-locked until
 * the test is written, so a cleanup running at the same time cannot remove them underneath it.
 */
async function checkImages(tx: Tx, userId: string, questions: readonly Question[]) {
  const wanted = imagesOf(questions)
  if (!wanted.length) return
  const found = await tx
    .select({ id: examImages.id })
    .from(examImages)
    .where(and(eq(examImages.userId, userId), inArray(examImages.id, wanted)))
    .for('share')
  const known = new Set(found.map((r) => r.id))
  const fields: Record<string, string[]> = {}
  questions.forEach((q, i) => {
    if (q.image && !known.has(q.image)) fields[`questions.${i}.image`] = ['exams.errors.image']
  })
  if (Object.keys(fields).length) throw new DomainError(422, 'common.errors.validation', fields)
}

const usesImage = (imageId: typeof examImages.id | string) =>
  sql`${exams.questions} @> jsonb_build_array(jsonb_build_object('image', ${imageId}::text))`

/** Deletes the given images of the teacher that no test of theirs uses any more; returns their file keys. */
async function dropUnused(tx: Tx, userId: string, candidates: readonly string[]): Promise<string[]> {
  if (!candidates.length) return []
  const locked = await tx
    .select({ id: examImages.id, fileKey: examImages.fileKey })
    .from(examImages)
    .where(and(eq(examImages.userId, userId), inArray(examImages.id, [...candidates])))
    .for('update')
  const gone: string[] = []
  for (const image of locked) {
    const [used] = await tx
      .select({ id: exams.id })
      .from(exams)
      .where(and(eq(exams.userId, userId), usesImage(image.id)))
      .limit(1)
    if (used) continue
    await tx.delete(examImages).where(eq(examImages.id, image.id))
    gone.push(image.fileKey)
  }
  return gone
}

async function removeFiles(files: FileStore, keys: readonly string[]) {
  // After the commit: a file left behind by a crash here is only unused bytes, never a broken test.
  await discardFiles({ files, keys })
}

export type CreateExamOptions = { db: Db; userId: string; exam: ExamInput }

export async function createExam({ db, userId, exam }: CreateExamOptions): Promise<ExamRecord> {
  return db.transaction(async (tx) => {
    await checkImages(tx, userId, exam.questions)
    const [row] = await tx
      .insert(exams)
      .values({ userId, ...columnsOf(exam) })
      .returning()
    if (!row) throw new Error('exam insert returned no row')
    return asRecord(row)
  })
}

export type ListExamsOptions = { db: Db; userId: string; limit?: number }

/** The teacher's tests, newest first, without their questions; `limit` for a glance (her home shows the latest few). */
export async function listExams({ db, userId, limit }: ListExamsOptions): Promise<ExamSummary[]> {
  const query = db
    .select({
      id: exams.id,
      title: exams.title,
      subject: exams.subject,
      grade: exams.grade,
      date: exams.date,
      questionCount: exams.questionCount,
      totalMarks: exams.totalMarks,
      createdAt: exams.createdAt,
      updatedAt: exams.updatedAt,
    })
    .from(exams)
    .where(eq(exams.userId, userId))
    .orderBy(desc(exams.createdAt), desc(exams.id))
  return limit === undefined ? query : query.limit(limit)
}

export type FindExamOptions = { db: Db; userId: string; id: string }

export async function findExam({ db, userId, id }: FindExamOptions): Promise<ExamRecord | null> {
  if (!isUuid(id)) return null
  const [row] = await db
    .select()
    .from(exams)
    .where(and(eq(exams.id, id), eq(exams.userId, userId)))
    .limit(1)
  return row ? asRecord(row) : null
}

export type UpdateExamOptions = { db: Db; files: FileStore; userId: string; id: string; exam: ExamInput }

/** Replaces the test's header and questions; null when it is not the teacher's. */
export async function updateExam({ db, files, userId, id, exam }: UpdateExamOptions): Promise<ExamRecord | null> {
  if (!isUuid(id)) return null
  const result = await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ questions: exams.questions })
      .from(exams)
      .where(and(eq(exams.id, id), eq(exams.userId, userId)))
      .for('update')
    if (!before) return null
    await checkImages(tx, userId, exam.questions)
    const [row] = await tx
      .update(exams)
      .set({ ...columnsOf(exam), updatedAt: new Date() })
      .where(and(eq(exams.id, id), eq(exams.userId, userId)))
      .returning()
    if (!row) return null
    const kept = new Set(imagesOf(exam.questions))
    const dropped = imagesOf(before.questions as Question[]).filter((image) => !kept.has(image))
    return { record: asRecord(row), gone: await dropUnused(tx, userId, dropped) }
  })
  if (!result) return null
  await removeFiles(files, result.gone)
  return result.record
}

export type DeleteExamOptions = { db: Db; files: FileStore; userId: string; id: string }

/** Deletes the test, and the images no other test of the teacher's uses. */
export async function deleteExam({ db, files, userId, id }: DeleteExamOptions): Promise<boolean> {
  if (!isUuid(id)) return false
  const gone = await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(exams)
      .where(and(eq(exams.id, id), eq(exams.userId, userId)))
      .returning({ questions: exams.questions })
    if (!row) return null
    return dropUnused(tx, userId, imagesOf(row.questions as Question[]))
  })
  if (!gone) return false
  await removeFiles(files, gone)
  return true
}

export type DuplicateExamOptions = { db: Db; userId: string; id: string; title: (original: string) => string }

/** A copy of the test (same questions and images) under a new title, listed first. */
export async function duplicateExam({ db, userId, id, title }: DuplicateExamOptions): Promise<ExamRecord | null> {
  const original = await findExam({ db, userId, id })
  if (!original) return null
  const { id: _id, createdAt: _c, updatedAt: _u, ...copy } = original
  const [row] = await db
    .insert(exams)
    .values({ ...copy, title: title(original.title).slice(0, EXAM_LIMITS.title) })
    .returning()
  if (!row) throw new Error('exam insert returned no row')
  return asRecord(row)
}

export type PruneExamImagesOptions = { db: Db; files: FileStore; userId: string; olderThan: Date }

/**
 * Images uploaded but never saved in a test (the editor was left without saving). Only those
 * older than `olderThan`, so an upload waiting for its test's first save is left alone.
 */
export async function pruneExamImages({ db, files, userId, olderThan }: PruneExamImagesOptions): Promise<number> {
  const gone = await db.transaction(async (tx) => {
    const stale = await tx
      .select({ id: examImages.id })
      .from(examImages)
      .where(and(eq(examImages.userId, userId), lt(examImages.createdAt, olderThan)))
    return dropUnused(
      tx,
      userId,
      stale.map((s) => s.id),
    )
  })
  await removeFiles(files, gone)
  return gone.length
}
