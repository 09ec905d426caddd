import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { sessionCookieName } from '#app/features/accounts/index.server.ts'
import { users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { accountContext, createUser, silenceOutboxHints } from '#tests/factories.ts'
import { action as fullNameAction, loader as fullNameLoader } from './full-name.tsx'
import { action as loginAction } from './login.tsx'
import { routeAnswer } from '#tests/route-answer.ts'

// The full name, asked once after activation or at the first sign-in of an account never asked.

const testDb = setupTestDatabase()
silenceOutboxHints()

type Ctx = ReturnType<typeof accountContext>
const args = (ctx: Ctx, request: Request, lang = 'ar') => ({ request, params: { lang }, context: ctx }) as never

function post(path: string, fields: Record<string, string>, cookie = '', lang = 'ar') {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  return new Request(`http://localhost/${lang}/${path}`, { method: 'POST', body, headers: { cookie, origin: 'http://localhost' } })
}

async function signIn(ctx: Ctx, email: string, password: string) {
  const signedIn = await routeAnswer(() => loginAction(args(ctx, post('login?redirectTo=%2Far%2Fexams', { email, password }))))
  const cookie = signedIn.cookies.find((c) => c.startsWith(`${sessionCookieName(ctx.env)}=`))?.split(';')[0] ?? ''
  return { ...signedIn, cookie }
}

describe('the full-name step', () => {
  it('comes at the first sign-in of an account never asked, takes the names, and is not asked again', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    const first = await signIn(ctx, user.email, password)
    expect(first).toMatchObject({ status: 302, location: '/ar/full-name?redirectTo=%2Far%2Fexams' })
    expect(
      await routeAnswer(() =>
        fullNameLoader(args(ctx, new Request('http://localhost/ar/full-name', { headers: { cookie: first.cookie } }))),
      ),
    ).toMatchObject({ status: 200 })

    // Empty: only "required"; in the wrong letters: said so; nothing is saved.
    const empty = await routeAnswer(() =>
      fullNameAction(args(ctx, post('full-name?redirectTo=%2Far%2Fexams', { full_name_ar: ' ', full_name_en: '' }, first.cookie))),
    )
    expect(empty).toMatchObject({ status: 422, body: { ok: false, errors: { full_name_ar: ['accounts.errors.fullNameRequired'] } } })
    const latin = await routeAnswer(() =>
      fullNameAction(args(ctx, post('full-name', { full_name_ar: 'Noura', full_name_en: '' }, first.cookie))),
    )
    expect(latin).toMatchObject({ status: 422, body: { errors: { full_name_ar: ['accounts.errors.fullNameArabic'] } } })

    const saved = await routeAnswer(() =>
      fullNameAction(
        args(
          ctx,
          post(
            'full-name?redirectTo=%2Far%2Fexams',
            { full_name_ar: 'نورة بنت سعد العتيبي', full_name_en: 'Noura Saad Alotaibi' },
            first.cookie,
          ),
        ),
      ),
    )
    expect(saved).toMatchObject({ status: 302, location: '/ar/exams' })
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id))
    expect(row).toMatchObject({ fullNameAr: 'نورة بنت سعد العتيبي', fullNameEn: 'Noura Saad Alotaibi', username: user.username })

    // Asked once: the page goes on, and the next sign-in goes where she was going.
    expect(
      await routeAnswer(() =>
        fullNameLoader(
          args(ctx, new Request('http://localhost/ar/full-name?redirectTo=%2Far%2Fprofile', { headers: { cookie: first.cookie } })),
        ),
      ),
    ).toMatchObject({ status: 302, location: '/ar/profile' })
    expect(await signIn(ctx, user.email, password)).toMatchObject({ status: 302, location: '/ar/exams' })
  })

  it('is skipped with "later", once, and never sends her to another site', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    const { cookie } = await signIn(ctx, user.email, password)
    const skipped = await routeAnswer(() =>
      fullNameAction(args(ctx, post('full-name?redirectTo=https%3A%2F%2Fevil.example%2F', { intent: 'skip' }, cookie))),
    )
    expect(skipped).toMatchObject({ status: 302, location: '/ar' })
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id))
    expect(row).toMatchObject({ fullNameAr: null, fullNameEn: null })
    expect(row?.fullNameAskedAt).toBeInstanceOf(Date)
    expect(await signIn(ctx, user.email, password)).toMatchObject({ status: 302, location: '/ar/exams' })
  })

  it('needs a signed-in teacher', async () => {
    const ctx = accountContext(testDb())
    const guest = await routeAnswer(() => fullNameLoader(args(ctx, new Request('http://localhost/ar/full-name'))))
    expect(guest.status).toBe(302)
    expect(guest.location).toMatch(/^\/ar\/login/)
  })
})
