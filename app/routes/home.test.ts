import { describe, expect, it } from 'vitest'
import { saveAnalysis } from '#app/features/analyses/index.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { subscribedTeacher, teacher } from '#tests/exams.ts'
import { loader } from './home.tsx'

// `/:lang` is the public home for a guest and her own home for a signed-in teacher.

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

const load = (ctx: ReturnType<typeof testContext>, lang: 'ar' | 'en', cookie?: string) =>
  loader({
    request: new Request(`http://localhost/${lang}`, { headers: cookie ? { cookie } : {} }),
    params: { lang },
    context: ctx,
  } as never)

describe('the home page’s loader', () => {
  it('gives a guest the public page: packages, reviews and the guest texts, nothing of a teacher', async () => {
    const ctx = testContext(testDb())
    const page = await load(ctx, 'ar')
    expect(page.kind).toBe('guest')
    if (page.kind !== 'guest') return
    expect(page.packages).toHaveLength(3)
    expect(page.messages).toHaveProperty('home')
    expect(page.messages).not.toHaveProperty('teacher-home')
  })

  it('gives each signed-in teacher her own home, in either language', async () => {
    const ctx = testContext(testDb())
    const noura = await subscribedTeacher(ctx)
    const sara = await teacher(ctx)
    await saveAnalysis({
      db: ctx.db,
      input: {
        userId: noura.user.id,
        kind: 'absence',
        title: 'غياب الأسبوع الأول',
        meta: {},
        headline: {},
        report: {},
        records: [],
      },
    })

    for (const lang of ['ar', 'en'] as const) {
      const hers = await load(ctx, lang, noura.cookie)
      expect(hers.kind).toBe('teacher')
      if (hers.kind !== 'teacher') return
      expect(hers.messages).toHaveProperty('teacher-home')
      expect(hers.messages).not.toHaveProperty('home')
      expect(hers.home.subscription.state).toBe('current')
      expect(hers.home.analyses.map((a) => a.title)).toEqual(['غياب الأسبوع الأول'])
    }

    const other = await load(ctx, 'ar', sara.cookie)
    if (other.kind !== 'teacher') throw new Error('expected the teacher’s home')
    expect(other.home).toEqual({ subscription: { state: 'none' }, analyses: [], exams: [] })
  })

  it('gives a browser with a stale session cookie the guest page', async () => {
    const ctx = testContext(testDb())
    const page = await load(ctx, 'en', `${(await teacher(ctx)).cookie.split('=')[0]}=not-a-session`)
    expect(page.kind).toBe('guest')
  })
})
