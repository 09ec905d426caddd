import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { examImages, exams, users } from '#app/platform/db/schema.ts'
import { domainErrorOf } from '#tests/factories.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { storeExamImage } from './images.server.ts'
import { createExam, deleteExam, duplicateExam, findExam, listExams, pruneExamImages, updateExam } from './store.server.ts'
import { sampleExam, teacher } from '#tests/exams.ts'

const testDb = setupTestDatabase()
const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#0f5d52' } })
    .png()
    .toBuffer()

describe('tests in the database', () => {
  it('keeps a teacher’s tests apart from another’s, newest first, with their count and total', async () => {
    const ctx = testContext(testDb())
    const [a, b] = [await teacher(ctx), await teacher(ctx)]
    const first = await createExam({ db: ctx.db, userId: a.user.id, exam: sampleExam({ title: 'First' }) })
    const second = await createExam({ db: ctx.db, userId: a.user.id, exam: sampleExam({ title: 'Second', questions: [] }) })
    await createExam({ db: ctx.db, userId: b.user.id, exam: sampleExam({ title: 'Someone else' }) })

    const mine = await listExams({ db: ctx.db, userId: a.user.id })
    expect(mine.map((e) => [e.title, e.questionCount, e.totalMarks])).toEqual([
      ['Second', 0, 0],
      ['First', 6, 13],
    ])
    expect(mine[0]).not.toHaveProperty('questions')
    expect((await findExam({ db: ctx.db, userId: a.user.id, id: first.id }))?.questions).toEqual(sampleExam().questions)
    expect(first.date).toBe('2026-11-22')

    // Another teacher, or a malformed id: not found, nothing changed or deleted.
    expect(await findExam({ db: ctx.db, userId: b.user.id, id: first.id })).toBeNull()
    expect(await findExam({ db: ctx.db, userId: a.user.id, id: 'not-a-uuid' })).toBeNull()
    expect(
      await updateExam({ db: ctx.db, files: ctx.files, userId: b.user.id, id: first.id, exam: sampleExam({ title: 'Taken' }) }),
    ).toBeNull()
    expect(await deleteExam({ db: ctx.db, files: ctx.files, userId: b.user.id, id: first.id })).toBe(false)
    expect(await duplicateExam({ db: ctx.db, userId: b.user.id, id: first.id, title: (t) => t })).toBeNull()
    expect((await findExam({ db: ctx.db, userId: a.user.id, id: first.id }))?.title).toBe('First')

    const updated = await updateExam({
      db: ctx.db,
      files: ctx.files,
      userId: a.user.id,
      id: second.id,
      exam: sampleExam({ title: 'Second, edited' }),
    })
    expect(updated).toMatchObject({ title: 'Second, edited', questionCount: 6, totalMarks: 13 })
    expect(updated!.updatedAt.getTime()).toBeGreaterThanOrEqual(updated!.createdAt.getTime())

    const copy = await duplicateExam({ db: ctx.db, userId: a.user.id, id: first.id, title: (t) => `${t} (copy)` })
    expect(copy).toMatchObject({ title: 'First (copy)', questions: first.questions, userId: a.user.id })
    expect((await listExams({ db: ctx.db, userId: a.user.id })).map((e) => e.title)).toEqual(['First (copy)', 'Second, edited', 'First'])

    expect(await deleteExam({ db: ctx.db, files: ctx.files, userId: a.user.id, id: first.id })).toBe(true)
    expect(await findExam({ db: ctx.db, userId: a.user.id, id: first.id })).toBeNull()
  })

  it('accepts only the teacher’s own images in questions', async () => {
    const ctx = testContext(testDb())
    const [a, b] = [await teacher(ctx), await teacher(ctx)]
    const theirs = await storeExamImage({ db: ctx.db, files: ctx.files, userId: b.user.id, data: await png() })
    const base = sampleExam()
    const withImage = { ...base, questions: base.questions.map((q, i) => (i === 3 ? { ...q, image: theirs.id } : q)) }
    const error = await domainErrorOf(createExam({ db: ctx.db, userId: a.user.id, exam: withImage }))
    expect(error.status).toBe(422)
    expect(error.fields).toEqual({ 'questions.3.image': ['exams.errors.image'] })
    expect(await listExams({ db: ctx.db, userId: a.user.id })).toEqual([])
    await createExam({ db: ctx.db, userId: b.user.id, exam: withImage })
  })

  it('removes an image once no test uses it: not while a duplicate still does', async () => {
    const ctx = testContext(testDb())
    const { user } = await teacher(ctx)
    const image = await storeExamImage({ db: ctx.db, files: ctx.files, userId: user.id, data: await png() })
    const [row] = await ctx.db.select().from(examImages).where(eq(examImages.id, image.id))
    expect(await ctx.files.get(row!.fileKey)).not.toBeNull()
    const base = sampleExam()
    const withImage = { ...base, questions: base.questions.map((q, i) => (i === 0 ? { ...q, image: image.id } : q)) }
    const exam = await createExam({ db: ctx.db, userId: user.id, exam: withImage })
    const copy = await duplicateExam({ db: ctx.db, userId: user.id, id: exam.id, title: (t) => t })

    // The original drops the image: the copy still uses it.
    await updateExam({ db: ctx.db, files: ctx.files, userId: user.id, id: exam.id, exam: base })
    expect(await ctx.files.get(row!.fileKey)).not.toBeNull()
    // The copy goes: nothing uses it any more.
    await deleteExam({ db: ctx.db, files: ctx.files, userId: user.id, id: copy!.id })
    expect(await ctx.db.select().from(examImages).where(eq(examImages.id, image.id))).toEqual([])
    expect(await ctx.files.get(row!.fileKey)).toBeNull()
  })

  it('prunes uploads never saved in a test, only once they are a day old', async () => {
    const ctx = testContext(testDb())
    const { user } = await teacher(ctx)
    const unused = await storeExamImage({ db: ctx.db, files: ctx.files, userId: user.id, data: await png() })
    const used = await storeExamImage({ db: ctx.db, files: ctx.files, userId: user.id, data: await png() })
    const base = sampleExam()
    await createExam({
      db: ctx.db,
      userId: user.id,
      exam: { ...base, questions: base.questions.map((q, i) => (i === 1 ? { ...q, image: used.id } : q)) },
    })
    expect(await pruneExamImages({ db: ctx.db, files: ctx.files, userId: user.id, olderThan: new Date(Date.now() - 60_000) })).toBe(0)
    expect(await pruneExamImages({ db: ctx.db, files: ctx.files, userId: user.id, olderThan: new Date(Date.now() + 60_000) })).toBe(1)
    const left = await ctx.db.select({ id: examImages.id }).from(examImages).where(eq(examImages.userId, user.id))
    expect(left.map((r) => r.id)).toEqual([used.id])
    expect(unused.id).not.toBe(used.id)
  })

  it('goes with the teacher’s account', async () => {
    const ctx = testContext(testDb())
    const { user } = await teacher(ctx)
    await createExam({ db: ctx.db, userId: user.id, exam: sampleExam() })
    await storeExamImage({ db: ctx.db, files: ctx.files, userId: user.id, data: await png() })
    await ctx.db.delete(users).where(eq(users.id, user.id))
    expect(await ctx.db.select().from(exams).where(eq(exams.userId, user.id))).toEqual([])
    expect(await ctx.db.select().from(examImages).where(eq(examImages.userId, user.id))).toEqual([])
  })
})
