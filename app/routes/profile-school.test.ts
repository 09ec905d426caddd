import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { schoolDetailsOf } from '#app/features/accounts/index.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { teacher } from '#tests/exams.ts'
import { action, loader } from './profile.tsx'

// The profile page's school details, its loader and action called as React Router calls them
// with the form as the browser sends it (multipart, no script needed).

const testDb = setupTestDatabase()

const url = 'http://localhost/en/profile'
const args = (ctx: ReturnType<typeof testContext>, request: Request) => ({ request, params: { lang: 'en' }, context: ctx }) as never
const post = (cookie: string, form: FormData) =>
  new Request(url, { method: 'POST', body: form, headers: { cookie, origin: 'http://localhost' } })

async function submit(ctx: ReturnType<typeof testContext>, cookie: string, fields: Record<string, string | File>) {
  const form = new FormData()
  form.set('intent', 'school')
  for (const [key, value] of Object.entries(fields)) form.set(key, value)
  try {
    const answer = (await action(args(ctx, post(cookie, form)))) as { init: { status: number }; data: { errors: Record<string, string[]> } }
    return { status: answer.init.status, errors: answer.data.errors }
  } catch (error) {
    if (!(error instanceof Response)) throw error
    return { status: error.status, location: error.headers.get('location') }
  }
}

const logo = async () =>
  new File(
    [
      new Uint8Array(
        await sharp({ create: { width: 40, height: 40, channels: 3, background: '#0f5d52' } })
          .png()
          .toBuffer(),
      ),
    ],
    'logo.png',
    {
      type: 'image/png',
    },
  )

describe('the school details on the profile page', () => {
  it('saves them with a logo, shows them, refuses a missing name, and removes the logo with the checkbox', async () => {
    const ctx = testContext(testDb())
    const { user, cookie } = await teacher(ctx)
    expect(((await loader(args(ctx, new Request(url, { headers: { cookie } })))) as { school: unknown }).school).toBeNull()

    expect(await submit(ctx, cookie, { school_name: 'King Fahd Intermediate', counsellor_name: 'Omar Saleh', logo: await logo() })).toEqual(
      { status: 302, location: '/en/profile#school' },
    )
    const shown = ((await loader(args(ctx, new Request(url, { headers: { cookie } })))) as { school: Record<string, unknown> }).school
    expect(shown).toMatchObject({ schoolName: 'King Fahd Intermediate', counsellorName: 'Omar Saleh', educationOffice: null })
    expect(shown.logoUrl).toMatch(/^\/files\/logos\/[0-9a-f-]{36}\.webp$/)

    expect(await submit(ctx, cookie, { school_name: '' })).toEqual({
      status: 422,
      errors: { school_name: ['accounts.errors.schoolNameRequired'] },
    })

    expect(await submit(ctx, cookie, { school_name: 'King Fahd Intermediate', remove_logo: 'on' })).toMatchObject({ status: 302 })
    const after = await schoolDetailsOf({ db: ctx.db, userId: user.id })
    expect(after).toMatchObject({ schoolName: 'King Fahd Intermediate', counsellorName: 'Omar Saleh', logoFile: null })
  })
})
