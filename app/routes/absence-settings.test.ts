import { describe, expect, it } from 'vitest'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { subscribedTeacher, teacher } from '#tests/exams.ts'
import { action, loader } from './absence-settings.tsx'

// The tier thresholds' page, its loader and action called as React Router calls them: each
// teacher's own thresholds, refused unless ascending, the defaults restored by one button.

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

const url = 'http://localhost/en/absence-settings'
const args = (ctx: ReturnType<typeof testContext>, request: Request) => ({ request, params: { lang: 'en' }, context: ctx }) as never
const get = (cookie: string) => new Request(url, { headers: { cookie } })
const post = (cookie: string, fields: Record<string, string>) =>
  new Request(url, { method: 'POST', body: new URLSearchParams(fields), headers: { cookie, origin: 'http://localhost' } })

/** What the action throws (its redirect) or answers (a failed form). */
async function submit(ctx: ReturnType<typeof testContext>, cookie: string, fields: Record<string, string>) {
  try {
    const answer = (await action(args(ctx, post(cookie, fields)))) as {
      init: { status: number }
      data: { errors: Record<string, string[]>; values: Record<string, string> }
    }
    return { status: answer.init.status, errors: answer.data.errors, values: answer.data.values }
  } catch (error) {
    if (!(error instanceof Response)) throw error
    return { status: error.status, location: error.headers.get('location'), flash: error.headers.get('set-cookie') }
  }
}

const thresholdsOf = async (ctx: ReturnType<typeof testContext>, cookie: string) =>
  ((await loader(args(ctx, get(cookie)))) as { thresholds: unknown }).thresholds

describe('the absence settings page', () => {
  it('is for subscribers', async () => {
    const ctx = testContext(testDb())
    const { cookie } = await teacher(ctx)
    await expect(loader(args(ctx, get(cookie)))).rejects.toMatchObject({ status: 302 })
    await expect(loader(args(ctx, new Request(url)))).rejects.toMatchObject({ status: 302 })
  })

  it('shows the defaults, saves a teacher’s thresholds for her alone, refuses a wrong order and restores the defaults', async () => {
    const ctx = testContext(testDb())
    const { cookie } = await subscribedTeacher(ctx)
    const other = await subscribedTeacher(ctx)
    expect(await thresholdsOf(ctx, cookie)).toEqual({ at_risk: 5, chronic: 10, severe: 20 })

    expect(await submit(ctx, cookie, { at_risk: '7.5', chronic: '15', severe: '25' })).toEqual({
      status: 302,
      location: '/en/absence-settings',
      flash: expect.stringContaining('absence.tiers.saved'),
    })
    expect(await thresholdsOf(ctx, cookie)).toEqual({ at_risk: 7.5, chronic: 15, severe: 25 })
    expect(await thresholdsOf(ctx, other.cookie)).toEqual({ at_risk: 5, chronic: 10, severe: 20 })

    // Not ascending: 422 with the field's error and what was typed; nothing saved.
    expect(await submit(ctx, cookie, { at_risk: '12', chronic: '11', severe: '25' })).toEqual({
      status: 422,
      errors: { chronic: ['absence.tiers.errors.ascending'] },
      values: { at_risk: '12', chronic: '11', severe: '25' },
    })
    expect(await submit(ctx, cookie, { at_risk: '5', chronic: '10', severe: '' })).toMatchObject({
      status: 422,
      errors: { severe: ['absence.tiers.errors.required'] },
    })
    expect(await thresholdsOf(ctx, cookie)).toEqual({ at_risk: 7.5, chronic: 15, severe: 25 })

    expect(await submit(ctx, cookie, { intent: 'defaults' })).toMatchObject({ status: 302 })
    expect(await thresholdsOf(ctx, cookie)).toEqual({ at_risk: 5, chronic: 10, severe: 20 })
  })
})
