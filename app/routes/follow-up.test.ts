import { describe, expect, it } from 'vitest'
import { uploadAbsence } from '#app/features/absence/index.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { subscribedTeacher, teacher } from '#tests/exams.ts'
import { absenceWorkbook, firstSunday, hind, reem, sara, threeUploads } from '#tests/follow-up-workbooks.ts'
import { action as settingsAction, loader as settingsLoader } from './absence-settings.tsx'
import { action, loader } from './follow-up.tsx'

// The follow-up register's page and the ladder's form on the settings page, their loaders and
// actions called as React Router calls them: a teacher's own register only (another teacher's
// entry answers 404), forms refused with the field at fault and what was typed.

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

type Ctx = ReturnType<typeof testContext>
const args = (ctx: Ctx, request: Request) => ({ request, params: { lang: 'en' }, context: ctx }) as never
const page = 'http://localhost/en/follow-up'
const settings = 'http://localhost/en/absence-settings'
const post = (url: string, cookie: string, fields: Record<string, string>) =>
  new Request(url, { method: 'POST', body: new URLSearchParams(fields), headers: { cookie, origin: 'http://localhost' } })

/** What an action throws (a redirect, a 404) or answers (a refused form). */
async function submit(run: () => Promise<unknown>) {
  try {
    const answered = await run()
    if (answered instanceof Response) return { status: answered.status, location: answered.headers.get('location') }
    const answer = answered as { init: { status: number } | null; data: Record<string, unknown> }
    return { status: answer.init?.status ?? 200, ...answer.data }
  } catch (error) {
    if (error instanceof Response) return { status: error.status, location: error.headers.get('location') }
    if (error && typeof error === 'object' && 'init' in error) return { status: (error as { init: { status: number } }).init.status }
    throw error
  }
}

type Register = Awaited<ReturnType<typeof loader>>['register']
const registerOf = async (ctx: Ctx, cookie: string) =>
  ((await loader(args(ctx, new Request(page, { headers: { cookie } })))) as { register: Register }).register

async function uploadOctober(ctx: Ctx, userId: string) {
  const u = threeUploads[0]!
  const bytes = absenceWorkbook(u.students, firstSunday, u.days)
  await uploadAbsence({ ...ctx, input: { userId, file: new File([new Uint8Array(bytes)], 'october.xlsx'), lang: 'en' } })
}

describe('the follow-up register page', () => {
  it('is for subscribers', async () => {
    const ctx = testContext(testDb())
    const { cookie } = await teacher(ctx)
    await expect(loader(args(ctx, new Request(page, { headers: { cookie } })))).rejects.toMatchObject({ status: 302 })
  })

  it('records a document, changes and deletes it, refuses a wrong form, and answers 404 for another teacher’s entry', async () => {
    const ctx = testContext(testDb())
    const { user, cookie } = await subscribedTeacher(ctx)
    await uploadOctober(ctx, user.id)
    let r = await registerOf(ctx, cookie)
    expect(r.schoolYear).toBe(2025)
    expect(r.outstanding.map((s) => [s.name, s.step])).toEqual([
      [reem.name, 2],
      [sara.name, 1],
      [hind.name, 5],
    ])
    expect(r.byClassroom).toEqual([{ grade: 'الأول المتوسط', classroom: '1', reached: 3, issued: 0, outstanding: 3 }])
    const sarasRef = r.outstanding.find((s) => s.name === sara.name)!.ref
    const fields = { intent: 'issue', student: sarasRef, step: '1', school_year: '2025', issued_by: 'Mona', status: 'signed', notes: '' }

    // A date that does not exist: 422 for that form (its student and step), what was typed kept.
    expect(await submit(() => action(args(ctx, post(page, cookie, { ...fields, issued_on: '2025-02-30' }))))).toMatchObject({
      status: 422,
      target: `${sarasRef}:1`,
      errors: { issued_on: ['follow-up-register.errors.date'] },
      values: { issued_on: '2025-02-30', issued_by: 'Mona' },
    })
    expect(await submit(() => action(args(ctx, post(page, cookie, { ...fields, issued_on: '٢٠٢٥-١٠-٢٠' }))))).toMatchObject({
      status: 302,
      location: '/en/follow-up?year=2025',
    })
    r = await registerOf(ctx, cookie)
    expect(r.outstanding.map((s) => s.name)).toEqual([reem.name, hind.name])
    expect(r.issued).toMatchObject([{ studentName: sara.name, step: 1, status: 'signed', issuedOn: '2025-10-20', issuedBy: 'Mona' }])
    // The same step again: refused on that form.
    expect(await submit(() => action(args(ctx, post(page, cookie, { ...fields, issued_on: '2025-10-21' }))))).toMatchObject({
      status: 409,
      errors: { step: ['follow-up-register.errors.alreadyIssued'] },
    })

    const id = r.issued[0]!.id
    expect(
      await submit(() => action(args(ctx, post(page, cookie, { intent: 'update', id, status: 'declined', notes: 'Called twice' })))),
    ).toMatchObject({ status: 302 })
    expect((await registerOf(ctx, cookie)).issued).toMatchObject([{ status: 'declined', notes: 'Called twice' }])

    // Another teacher: her own empty register, and 404 for this entry and this student.
    const other = await subscribedTeacher(ctx)
    expect(await registerOf(ctx, other.cookie)).toMatchObject({ outstanding: [], issued: [], byClassroom: [] })
    for (const fieldsOfOther of <Record<string, string>[]>[
      { intent: 'update', id, status: 'signed' },
      { intent: 'delete', id },
      { ...fields, issued_on: '2025-10-20', student: r.outstanding[0]!.ref, step: '2' },
    ])
      expect(await submit(() => action(args(ctx, post(page, other.cookie, fieldsOfOther))))).toMatchObject({ status: 404 })
    expect((await registerOf(ctx, cookie)).issued).toMatchObject([{ status: 'declined' }])

    expect(await submit(() => action(args(ctx, post(page, cookie, { intent: 'delete', id }))))).toMatchObject({ status: 302 })
    expect((await registerOf(ctx, cookie)).outstanding).toHaveLength(3)
  })
})

describe('the ladder on the absence settings page', () => {
  type Ladder = readonly { days: number; name: string | null; document: string }[]
  const ladderOf = async (ctx: Ctx, cookie: string) =>
    ((await settingsLoader(args(ctx, new Request(settings, { headers: { cookie } })))) as { ladder: Ladder }).ladder

  it('chooses a preset, saves edited steps (a row left empty or ticked off is no step), and names the field at fault', async () => {
    const ctx = testContext(testDb())
    const { cookie } = await subscribedTeacher(ctx)
    expect((await ladderOf(ctx, cookie)).map((s) => s.days)).toEqual([3, 5, 10, 15, 25])

    expect(
      await submit(() => settingsAction(args(ctx, post(settings, cookie, { intent: 'ladder-preset', preset: 'short' })))),
    ).toMatchObject({
      status: 302,
    })
    expect((await ladderOf(ctx, cookie)).map((s) => s.days)).toEqual([10, 15, 20])

    const saved = await submit(() =>
      settingsAction(
        args(
          ctx,
          post(settings, cookie, {
            intent: 'ladder-steps',
            days_0: '٢',
            name_0: 'Notice',
            document_0: 'firstWarning',
            days_1: '7',
            name_1: '',
            document_1: 'guardianPledge',
            days_2: '9',
            document_2: 'counsellorReferral',
            remove_2: 'on',
            days_3: '',
            name_3: '',
            document_3: 'enrolmentChange',
          }),
        ),
      ),
    )
    expect(saved).toMatchObject({ status: 302, location: '/en/absence-settings' })
    expect(await ladderOf(ctx, cookie)).toEqual([
      { days: 2, name: 'Notice', document: 'firstWarning' },
      { days: 7, name: null, document: 'guardianPledge' },
    ])

    // Not ascending: the second row's days are at fault; nothing saved.
    const refused = await submit(() =>
      settingsAction(
        args(
          ctx,
          post(settings, cookie, {
            intent: 'ladder-steps',
            days_0: '5',
            document_0: 'firstWarning',
            days_1: '5',
            document_1: 'secondWarning',
          }),
        ),
      ),
    )
    expect(refused).toMatchObject({
      status: 422,
      form: 'ladder',
      errors: { days_1: ['followUp.ladder.errors.ascending'], _form: ['followUp.ladder.errors.fix'] },
      values: { days_0: '5', days_1: '5' },
    })
    const none = await submit(() =>
      settingsAction(args(ctx, post(settings, cookie, { intent: 'ladder-steps', remove_0: 'on', days_0: '3' }))),
    )
    expect(none).toMatchObject({ status: 422, errors: { _form: ['followUp.ladder.errors.count'] } })
    expect((await ladderOf(ctx, cookie)).map((s) => s.days)).toEqual([2, 7])
  })
})
