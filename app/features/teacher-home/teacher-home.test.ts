import { describe, expect, it } from 'vitest'
import { saveAnalysis } from '#app/features/analyses/index.server.ts'
import { createExam } from '#app/features/exams/index.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { sampleExam, subscribedTeacher, teacher } from '#tests/exams.ts'
import { loadTeacherHome, RECENT_ON_HOME } from './teacher-home.server.ts'

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

const DAY = 24 * 60 * 60 * 1000

const analysis = (userId: string, title: string, kind: 'absence' | 'grades' = 'absence') => ({
  userId,
  kind,
  title,
  meta: {},
  headline: {},
  report: {},
  records: [],
})

describe('the teacher’s home', () => {
  it('shows a new teacher the way to subscribe and nothing recent', async () => {
    const ctx = testContext(testDb())
    const { user } = await teacher(ctx)
    expect(await loadTeacherHome({ db: ctx.db, userId: user.id, lang: 'ar' })).toEqual({
      subscription: { state: 'none' },
      analyses: [],
      exams: [],
    })
  })

  it('shows her own latest analyses and tests, newest first, and her subscription in force with its end', async () => {
    const ctx = testContext(testDb())
    const { user } = await subscribedTeacher(ctx)
    const other = await subscribedTeacher(ctx)
    for (const title of ['week 1', 'week 2', 'week 3']) await saveAnalysis({ db: ctx.db, input: analysis(user.id, title) })
    await saveAnalysis({ db: ctx.db, input: analysis(user.id, 'term scores', 'grades') })
    await saveAnalysis({ db: ctx.db, input: analysis(other.user.id, 'not hers') })
    for (const title of ['quiz 1', 'quiz 2', 'quiz 3', 'quiz 4'])
      await createExam({ db: ctx.db, userId: user.id, exam: sampleExam({ title }) })
    await createExam({ db: ctx.db, userId: other.user.id, exam: sampleExam({ title: 'not hers either' }) })

    const home = await loadTeacherHome({ db: ctx.db, userId: user.id, lang: 'en' })
    expect(home.analyses.map((a) => [a.title, a.kind])).toEqual([
      ['term scores', 'grades'],
      ['week 3', 'absence'],
      ['week 2', 'absence'],
    ])
    expect(home.exams.map((e) => e.title)).toEqual(['quiz 4', 'quiz 3', 'quiz 2'])
    expect(home.exams[0]?.questionCount).toBe(6)
    expect(RECENT_ON_HOME).toBe(3)

    expect(home.subscription.state).toBe('current')
    if (home.subscription.state !== 'current') return
    // Package 1 is the month: about 30 days from now, in the page's language.
    expect(home.subscription.packageName).toMatch(/month/i)
    expect(home.subscription.daysLeft).toBeGreaterThanOrEqual(28)
    expect(home.subscription.daysLeft).toBeLessThanOrEqual(31)
    const arabic = await loadTeacherHome({ db: ctx.db, userId: user.id, lang: 'ar' })
    expect(arabic.subscription.state === 'current' && arabic.subscription.packageName).toMatch(/[\u0600-\u06FF]/)
  })

  it('tells a subscription not yet begun from one that has ended, and counts the last day as a day', async () => {
    const ctx = testContext(testDb())
    const { user } = await subscribedTeacher(ctx)
    const now = Date.now()
    const before = await loadTeacherHome({ db: ctx.db, userId: user.id, lang: 'en', now: new Date(now - DAY) })
    expect(before.subscription.state).toBe('upcoming')
    const after = await loadTeacherHome({ db: ctx.db, userId: user.id, lang: 'en', now: new Date(now + 400 * DAY) })
    expect(after.subscription.state).toBe('expired')

    const current = await loadTeacherHome({ db: ctx.db, userId: user.id, lang: 'en' })
    if (current.subscription.state !== 'current') throw new Error('expected a current subscription')
    const lastHour = new Date(Date.parse(current.subscription.endsAt) - 60 * 60 * 1000)
    const lastDay = await loadTeacherHome({ db: ctx.db, userId: user.id, lang: 'en', now: lastHour })
    expect(lastDay.subscription).toMatchObject({ state: 'current', daysLeft: 1 })
  })
})
