import { Hono, type Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import {
  activateAccount,
  CLEAR_SITE_DATA,
  completeLoginChallenge,
  confirmEmailChange,
  confirmPasswordChange,
  createReview,
  createSession,
  findSession,
  listApprovedReviews,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  registerUser,
  requestEmailChange,
  requestPasswordChange,
  requestPasswordReset,
  resendCode,
  resetPassword,
  revokeSession,
  updateProfile,
  userToJson,
  signIn,
  verifyResetCode,
  type CurrentSession,
} from '#app/features/accounts/index.server.ts'
import {
  activateSchema,
  changeEmailSchema,
  changePasswordSchema,
  confirmCodeSchema,
  forgotPasswordSchema,
  loginSchema,
  profileSchema,
  registerSchema,
  resendSchema,
  resetPasswordSchema,
  reviewSchema,
  twoFactorLoginSchema,
  verifyResetCodeSchema,
} from '#app/features/accounts/schemas.ts'
import { listSubscriptions } from '#app/features/billing/index.server.ts'
import { DomainError } from '#app/lib/errors.ts'
import { apiLang, apiTranslator, jsonBody, ok, validationFailed } from './respond.ts'
import type { ApiEnv } from './types.ts'

// The accounts part of /api/v1 (api.md): auth/*, notifications and reviews. Each handler
// parses its body with the form's zod schema, calls one domain function and shapes the answer;
// a DomainError thrown below is answered by the API's onError (status, message, Retry-After).

type C = Context<ApiEnv>

const accountsT = (c: C) => apiTranslator(c, ['accounts'])

/** The session of `Authorization: Bearer <token>` (API tokens only), looked up once per request. */
export async function apiSession(c: C): Promise<CurrentSession | null> {
  const known = c.get('apiSession')
  if (known !== undefined) return known
  const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1]
  const { db, env, logger } = c.get('ctx')
  // Only kind 'api': a web session secret (the cookie's) never opens the API, in a header or a cookie.
  const session = token ? await findSession({ db, secret: env.SESSION_SECRET, token, kind: 'api', idleDays: env.SESSION_IDLE_DAYS, logger }) : null
  c.set('apiSession', session)
  return session
}

/** Resolves the bearer token before the handlers run (a bad token is simply no user). */
export const bearerAuth = createMiddleware<ApiEnv>(async (c, next) => {
  await apiSession(c)
  await next()
})

/** The signed-in API user; without a valid token, a 401 `{message}` (thrown, answered by onError). */
export async function requireApiUser(c: C): Promise<CurrentSession> {
  const session = await apiSession(c)
  if (!session) throw new DomainError(401, 'accounts.errors.unauthenticated')
  return session
}

async function newApiToken(c: C, userId: string): Promise<string> {
  const { db, env } = c.get('ctx')
  const { token } = await createSession({ db, secret: env.SESSION_SECRET, userId, kind: 'api', userAgent: c.req.header('user-agent') })
  return token
}

/** api.md's user object, with the subscription in force now (its package named in the request's language). */
async function userJson(c: C, user: Parameters<typeof userToJson>[0]) {
  const current = (await listSubscriptions(c.get('ctx').db, user.id, apiLang(c))).find((s) => s.status === 'current')
  return userToJson(user, current ? { package: { id: current.packageId, name: current.packageName }, starts_at: current.startsAt, ends_at: current.endsAt } : null)
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The body of the two routes that take a picture: JSON, or a form (multipart or urlencoded)
 * whose optional `avatar` file is read as bytes. A text field named avatar is passed on as
 * bytes too, so storeAvatar refuses it as "not an image" like any other wrong file.
 */
async function fieldsAndAvatar(c: C): Promise<{ fields: Record<string, unknown>; avatar: Uint8Array | null }> {
  const type = c.req.header('content-type') ?? ''
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type)) {
    const body = await jsonBody(c)
    return { fields: isRecord(body) ? body : {}, avatar: null }
  }
  let form: Record<string, string | File>
  try {
    form = await c.req.parseBody()
  } catch {
    // A malformed form is answered like an empty one: 422 with every required field.
    form = {}
  }
  const { avatar, ...fields } = form
  if (avatar instanceof File) return { fields, avatar: avatar.size > 0 ? new Uint8Array(await avatar.arrayBuffer()) : null }
  return { fields, avatar: avatar ? new TextEncoder().encode(avatar) : null }
}

export function createAuthApi() {
  const auth = new Hono<ApiEnv>()
  for (const path of ['/auth/*', '/notifications/*', '/reviews']) auth.use(path, bearerAuth)

  auth.post('/auth/register', async (c) => {
    const t = accountsT(c)
    const { fields, avatar } = await fieldsAndAvatar(c)
    const parsed = registerSchema.safeParse(fields)
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    const user = await registerUser(c.get('ctx'), { ...parsed.data, lang: apiLang(c), avatar })
    return ok(c, { user: await userJson(c, user) }, t('accounts.messages.registered'), 201)
  })

  auth.post('/auth/activate', async (c) => {
    const t = accountsT(c)
    const parsed = activateSchema.safeParse(await jsonBody(c))
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    const user = await activateAccount(c.get('ctx'), parsed.data)
    return ok(c, { token: await newApiToken(c, user.id), user: await userJson(c, user) }, t('accounts.messages.activated'))
  })

  auth.post('/auth/login', async (c) => {
    const t = accountsT(c)
    const parsed = loginSchema.safeParse(await jsonBody(c))
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    const { user, challenge } = await signIn(c.get('ctx'), parsed.data)
    // With the second factor on, no token yet: the code from the app goes to auth/login/two-factor.
    if (challenge !== null) return ok(c, { two_factor_required: true, two_factor_token: challenge }, t('accounts.twoFactor.required'))
    return ok(c, { token: await newApiToken(c, user.id), user: await userJson(c, user) }, t('accounts.messages.loggedIn'))
  })

  auth.post('/auth/login/two-factor', async (c) => {
    const t = accountsT(c)
    const parsed = twoFactorLoginSchema.safeParse(await jsonBody(c))
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    const user = await completeLoginChallenge(c.get('ctx'), { token: parsed.data.two_factor_token, code: parsed.data.code })
    return ok(c, { token: await newApiToken(c, user.id), user: await userJson(c, user) }, t('accounts.messages.loggedIn'))
  })

  auth.post('/auth/logout', async (c) => {
    const { sessionId, user } = await requireApiUser(c)
    await revokeSession(c.get('ctx'), { sessionId, userId: user.id, reason: 'logout' })
    // For a browser calling the API; other clients ignore it.
    c.header('Clear-Site-Data', CLEAR_SITE_DATA)
    return ok(c, null, accountsT(c)('accounts.messages.loggedOut'))
  })

  auth.get('/auth/profile', async (c) => {
    const { user } = await requireApiUser(c)
    return ok(c, { user: await userJson(c, user) })
  })

  auth.patch('/auth/profile', async (c) => {
    const { user } = await requireApiUser(c)
    const t = accountsT(c)
    const { fields, avatar } = await fieldsAndAvatar(c)
    const parsed = profileSchema.safeParse(fields)
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    const updated = await updateProfile(c.get('ctx'), user, { ...parsed.data, avatar })
    return ok(c, { user: await userJson(c, updated) }, t('accounts.messages.saved'))
  })

  auth.post('/auth/resend-code', async (c) => {
    const t = accountsT(c)
    const parsed = resendSchema.safeParse(await jsonBody(c))
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    // A change of email or password needs its owner's token; activation and reset need none.
    const session = await apiSession(c)
    await resendCode(c.get('ctx'), { ...parsed.data, lang: apiLang(c) }, session?.user ?? null)
    return ok(c, null, t('accounts.verify.resent'))
  })

  auth.post('/auth/forgot-password', async (c) => {
    const t = accountsT(c)
    const parsed = forgotPasswordSchema.safeParse(await jsonBody(c))
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    const { temporaryToken } = await requestPasswordReset(c.get('ctx'), { email: parsed.data.email, lang: apiLang(c) })
    return ok(c, { temporary_token: temporaryToken }, t('accounts.messages.resetSent'))
  })

  auth.post('/auth/verify-code', async (c) => {
    const t = accountsT(c)
    const parsed = verifyResetCodeSchema.safeParse(await jsonBody(c))
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    const { temporaryToken } = await verifyResetCode(c.get('ctx'), parsed.data)
    return ok(c, { temporary_token: temporaryToken }, t('accounts.api.codeVerified'))
  })

  auth.post('/auth/reset-password', async (c) => {
    const t = accountsT(c)
    const parsed = resetPasswordSchema.safeParse(await jsonBody(c))
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    await resetPassword(c.get('ctx'), parsed.data)
    return ok(c, null, t('accounts.messages.resetDone'))
  })

  // Two steps on one endpoint (api.md): a body with `code` confirms, any other body requests.
  auth.post('/auth/change-password', async (c) => {
    const { user } = await requireApiUser(c)
    const t = accountsT(c)
    const body = await jsonBody(c)
    if (isRecord(body) && 'code' in body) {
      const parsed = confirmCodeSchema.safeParse(body)
      if (!parsed.success) return validationFailed(c, parsed.error, t)
      await confirmPasswordChange(c.get('ctx'), user, parsed.data)
      // The change ends every session of the account, this token included (a stolen token
      // must not survive it). The device that made the change is signed in again: api.md says
      // `null`, but without a new token the client would have to ask for the new password
      // it has just set, so the answer carries one (docs/decisions/003).
      return ok(c, { token: await newApiToken(c, user.id) }, t('accounts.messages.passwordChanged'))
    }
    const parsed = changePasswordSchema.safeParse(body)
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    await requestPasswordChange(c.get('ctx'), user, { ...parsed.data, lang: apiLang(c) })
    return ok(c, null, t('accounts.messages.codeSent'))
  })

  auth.post('/auth/change-email', async (c) => {
    const { user } = await requireApiUser(c)
    const t = accountsT(c)
    const body = await jsonBody(c)
    if (isRecord(body) && 'code' in body) {
      const parsed = confirmCodeSchema.safeParse(body)
      if (!parsed.success) return validationFailed(c, parsed.error, t)
      const updated = await confirmEmailChange(c.get('ctx'), user, parsed.data)
      return ok(c, { user: await userJson(c, updated) }, t('accounts.profile.emailChanged'))
    }
    const parsed = changeEmailSchema.safeParse(body)
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    await requestEmailChange(c.get('ctx'), user, { ...parsed.data, lang: apiLang(c) })
    return ok(c, null, t('accounts.messages.codeSent'))
  })

  auth.get('/notifications', async (c) => {
    const { user } = await requireApiUser(c)
    const t = apiTranslator(c, ['notifications'])
    // A kind without a text in this language (a newer feature's) reads as a plain "Notification".
    const text = (kind: string, part: 'title' | 'body', params: Record<string, string | number>) => {
      const key = `notifications.kinds.${kind}.${part}`
      const value = t(key, params)
      return value === key ? t(`notifications.kinds.unknown.${part}`) : value
    }
    const rows = await listNotifications(c.get('ctx').db, user.id)
    return ok(
      c,
      rows.map((n) => ({
        id: n.id,
        kind: n.kind,
        title: text(n.kind, 'title', n.params),
        body: text(n.kind, 'body', n.params),
        read_at: n.readAt?.toISOString() ?? null,
        created_at: n.createdAt.toISOString(),
      })),
    )
  })

  auth.post('/notifications/read-all', async (c) => {
    const { user } = await requireApiUser(c)
    await markAllNotificationsRead(c.get('ctx').db, user.id)
    return ok(c, null, accountsT(c)('accounts.messages.saved'))
  })

  auth.post('/notifications/:id/read', async (c) => {
    const { user } = await requireApiUser(c)
    // Another user's notification is "not found", never "forbidden" (api.md).
    if (!(await markNotificationRead(c.get('ctx').db, user.id, c.req.param('id')))) throw new DomainError(404, 'common.errors.notFoundApi')
    return ok(c, null, accountsT(c)('accounts.messages.saved'))
  })

  auth.get('/reviews', async (c) => {
    const rows = await listApprovedReviews(c.get('ctx').db)
    return ok(
      c,
      rows.map((r) => ({ id: r.id, rating: r.rating, comment: r.comment, username: r.username, created_at: r.createdAt.toISOString() })),
    )
  })

  auth.post('/reviews', async (c) => {
    const { user } = await requireApiUser(c)
    const t = accountsT(c)
    const parsed = reviewSchema.safeParse(await jsonBody(c))
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    const review = await createReview(c.get('ctx').db, user.id, parsed.data)
    return ok(c, { id: review.id, rating: review.rating, comment: review.comment, status: review.status }, t('accounts.messages.reviewThanks'), 201)
  })

  return auth
}
