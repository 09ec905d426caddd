import { createMiddleware } from 'hono/factory'
import {
  activateAccount,
  CLEAR_SITE_DATA,
  completeLoginChallenge,
  confirmEmailChange,
  confirmPasswordChange,
  createReview,
  createSession,
  listApprovedReviews,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  registerUser,
  removeSchoolLogo,
  requestEmailChange,
  requestPasswordChange,
  requestPasswordReset,
  resendCode,
  resetPassword,
  revokeSession,
  saveSchoolDetails,
  schoolDetailsOf,
  signIn,
  updateProfile,
  userToJson,
  userWire,
  verifyResetCode,
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
  schoolDetailsSchema,
  twoFactorLoginSchema,
  verifyResetCodeSchema,
} from '#app/features/accounts/schemas.ts'
import { schoolLogoUrl } from '#app/features/accounts/index.ts'
import { listSubscriptions } from '#app/features/billing/index.server.ts'
import { DomainError } from '#app/lib/errors.ts'
import { schoolStudents } from '#app/lib/constants.ts'
import { wireDateTime, wireId, wireShape, type Wire } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import {
  apiLang,
  apiSession,
  apiTranslator,
  createRoutes,
  fromZod,
  jsonBody,
  parse,
  say,
  type ApiEnv,
  type C,
  type JsonSchema,
} from './contract.ts'

// The accounts part of /api/v1: auth/*, notifications and reviews. Each route calls one domain
// function and shapes the answer; a DomainError thrown below is answered by the API's onError
// (status, message, Retry-After).

/** Resolves the bearer token before the handlers run (a bad token is simply no user). */
export const bearerAuth = createMiddleware<ApiEnv>(async (c, next) => {
  await apiSession(c)
  await next()
})

async function newApiToken(c: C, userId: string): Promise<string> {
  const { db, env } = c.get('ctx')
  const { token } = await createSession({ db, secret: env.SESSION_SECRET, userId, kind: 'api', userAgent: c.req.header('user-agent') })
  return token
}

/** The user, with the subscription in force now (its package named in the request's language). */
async function userJson(c: C, user: Parameters<typeof userToJson>[0]) {
  const current = (await listSubscriptions({ db: c.get('ctx').db, userId: user.id, lang: apiLang(c) })).find((s) => s.status === 'current')
  return userToJson(
    user,
    current
      ? { package: { id: current.packageId, name: current.packageName }, starts_at: current.startsAt, ends_at: current.endsAt }
      : null,
  )
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The body of the two routes that take a picture: JSON, or a form (multipart or urlencoded)
 * whose optional `avatar` file is read as bytes. A text field named avatar is passed on as
 * bytes too, so storeAvatar refuses it as "not an image" like any other wrong file.
 */
async function fieldsAndAvatar(c: C): Promise<{ fields: Record<string, unknown>; avatar: Uint8Array | null }> {
  const { fields, file } = await fieldsAndFile(c, 'avatar')
  return { fields, avatar: file }
}

/** A JSON or form body whose optional file field `name` is read as bytes (see fieldsAndAvatar). */
async function fieldsAndFile(c: C, name: string): Promise<{ fields: Record<string, unknown>; file: Uint8Array | null }> {
  const type = c.req.header('content-type') ?? ''
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type)) {
    const body = await jsonBody(c)
    return { fields: isRecord(body) ? body : {}, file: null }
  }
  let form: Record<string, string | File>
  try {
    form = await c.req.parseBody()
  } catch {
    // A malformed form is answered like an empty one: 422 with every required field.
    form = {}
  }
  const { [name]: file, ...fields } = form
  if (file instanceof File) return { fields, file: file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : null }
  return { fields, file: file ? new TextEncoder().encode(file) : null }
}

const binary = (description: string): JsonSchema => ({ type: 'string', format: 'binary', description })
/** A form of `schema`'s fields and an optional picture. */
const withAvatar = (schema: z.core.$ZodType): JsonSchema => {
  const json = fromZod(schema)
  return {
    ...json,
    properties: { ...(json.properties as Record<string, JsonSchema>), avatar: binary('A profile picture (PNG, JPEG or WebP, up to 2 MB)') },
  }
}

/** The school details' form and an optional logo. */
const withLogo = (schema: z.core.$ZodType): JsonSchema => {
  const json = fromZod(schema)
  return {
    ...json,
    properties: {
      ...(json.properties as Record<string, JsonSchema>),
      logo: binary('The school’s logo (PNG, JPEG or WebP, up to 2 MB)'),
    },
  }
}

const schoolDetailsWire = wireShape(
  'SchoolDetails',
  z.object({
    school_name: z.string(),
    education_office: z.string().nullable(),
    principal_name: z.string().nullable(),
    counsellor_name: z.string().nullable(),
    students: z.enum(schoolStudents).describe('Whom the school teaches: the letters say son or daughter accordingly'),
    logo_url: z.string().nullable().describe('The logo as stored (WebP), or null'),
  }),
)
const schoolDetailsJson = (details: Awaited<ReturnType<typeof schoolDetailsOf>>): Wire<typeof schoolDetailsWire> | null =>
  details && {
    school_name: details.schoolName,
    education_office: details.educationOffice,
    principal_name: details.principalName,
    counsellor_name: details.counsellorName,
    students: details.students,
    logo_url: schoolLogoUrl(details.logoFile),
  }

const signedIn = z.object({ token: z.string().describe('The bearer token'), user: userWire })

const notificationWire = wireShape(
  'Notification',
  z.object({
    id: wireId,
    kind: z.string(),
    title: z.string(),
    body: z.string(),
    read_at: wireDateTime.nullable(),
    created_at: wireDateTime,
  }),
)
const rating = z.int().min(1).max(5)
const reviewWire = wireShape(
  'Review',
  z.object({ id: wireId, rating, comment: z.string(), username: z.string(), created_at: wireDateTime }),
)
const reviewReceivedWire = z.object({ id: wireId, rating, comment: z.string(), status: z.enum(['pending', 'approved', 'rejected']) })

export function authRoutes() {
  const routes = createRoutes()
  const { route } = routes
  for (const path of ['/auth/*', '/notifications/*', '/reviews']) routes.app.use(path, bearerAuth)

  route(
    {
      method: 'post',
      path: '/auth/register',
      tag: 'Auth',
      summary: 'Create an account',
      description: 'An activation code is emailed. JSON, or a form carrying an optional `avatar` file.',
      auth: 'none',
      body: { kind: 'json-or-multipart', json: registerSchema, name: 'RegisterRequest', multipart: withAvatar(registerSchema) },
      status: 201,
      data: z.object({ user: userWire }),
      errors: [413, 422, 429, 503],
    },
    async (c, { reply }) => {
      const { fields, avatar } = await fieldsAndAvatar(c)
      const user = await registerUser({ ...c.get('ctx'), input: { ...parse(registerSchema, fields), lang: apiLang(c), avatar } })
      return reply({ user: await userJson(c, user) }, say(c, 'accounts.messages.registered'))
    },
  )

  route(
    {
      method: 'post',
      path: '/auth/activate',
      tag: 'Auth',
      summary: 'Activate an account with the emailed code',
      auth: 'none',
      body: { kind: 'json', schema: activateSchema, name: 'ActivateRequest' },
      data: signedIn,
      errors: [409, 422, 429],
    },
    async (c, { body, reply }) => {
      const user = await activateAccount({ ...c.get('ctx'), input: body })
      return reply({ token: await newApiToken(c, user.id), user: await userJson(c, user) }, say(c, 'accounts.messages.activated'))
    },
  )

  route(
    {
      method: 'post',
      path: '/auth/login',
      tag: 'Auth',
      summary: 'Sign in',
      description:
        'With two-step verification on, no token yet: `{two_factor_required: true, two_factor_token}`, for auth/login/two-factor.',
      auth: 'none',
      body: { kind: 'json', schema: loginSchema, name: 'LoginRequest' },
      data: z.union([
        signedIn,
        z.object({ two_factor_required: z.literal(true), two_factor_token: z.string().describe('For auth/login/two-factor, ten minutes') }),
      ]),
      errors: [401, 403, 422, 429],
    },
    async (c, { body, reply }) => {
      const { user, challenge } = await signIn({ ...c.get('ctx'), input: body })
      // With the second factor on, no token yet: the code from the app goes to auth/login/two-factor.
      if (challenge !== null)
        return reply({ two_factor_required: true as const, two_factor_token: challenge }, say(c, 'accounts.twoFactor.required'))
      return reply({ token: await newApiToken(c, user.id), user: await userJson(c, user) }, say(c, 'accounts.messages.loggedIn'))
    },
  )

  route(
    {
      method: 'post',
      path: '/auth/login/two-factor',
      tag: 'Auth',
      summary: 'Finish signing in with the second factor',
      description:
        'For an account with two-step verification on, auth/login answers `{two_factor_required: true, two_factor_token}` instead of a token; this takes that token and a code from the authenticator app (or a recovery code). Five wrong codes end the token.',
      auth: 'none',
      body: { kind: 'json', schema: twoFactorLoginSchema },
      data: signedIn,
      errors: [422, 429],
    },
    async (c, { body, reply }) => {
      const user = await completeLoginChallenge({ ...c.get('ctx'), input: { token: body.two_factor_token, code: body.code } })
      return reply({ token: await newApiToken(c, user.id), user: await userJson(c, user) }, say(c, 'accounts.messages.loggedIn'))
    },
  )

  route(
    { method: 'post', path: '/auth/logout', tag: 'Auth', summary: 'Revoke this token', auth: 'bearer' },
    async (c, { session, reply }) => {
      await revokeSession({ ...c.get('ctx'), sessionId: session.sessionId, userId: session.user.id, reason: 'logout' })
      // For a browser calling the API; other clients ignore it.
      c.header('Clear-Site-Data', CLEAR_SITE_DATA)
      return reply(null, say(c, 'accounts.messages.loggedOut'))
    },
  )

  route(
    {
      method: 'get',
      path: '/auth/profile',
      tag: 'Auth',
      summary: 'The signed-in user',
      auth: 'bearer',
      data: z.object({ user: userWire }),
    },
    async (c, { session, reply }) => reply({ user: await userJson(c, session.user) }),
  )

  route(
    {
      method: 'patch',
      path: '/auth/profile',
      tag: 'Auth',
      summary: 'Change the username, full names, phone or picture',
      auth: 'bearer',
      body: { kind: 'json-or-multipart', json: profileSchema, name: 'ProfileRequest', multipart: withAvatar(profileSchema) },
      data: z.object({ user: userWire }),
      errors: [413, 422, 503],
    },
    async (c, { session, reply }) => {
      const { fields, avatar } = await fieldsAndAvatar(c)
      const updated = await updateProfile({ ...c.get('ctx'), user: session.user, input: { ...parse(profileSchema, fields), avatar } })
      return reply({ user: await userJson(c, updated) }, say(c, 'accounts.messages.saved'))
    },
  )

  route(
    {
      method: 'get',
      path: '/auth/profile/school',
      tag: 'Auth',
      summary: 'The school details printed on follow-up letters',
      description: '`school` is null until they are saved.',
      auth: 'bearer',
      data: z.object({ school: schoolDetailsWire.nullable() }),
    },
    async (c, { session, reply }) =>
      reply({ school: schoolDetailsJson(await schoolDetailsOf({ db: c.get('ctx').db, userId: session.user.id })) }),
  )

  route(
    {
      method: 'put',
      path: '/auth/profile/school',
      tag: 'Auth',
      summary: 'Save the school details',
      description:
        'The school’s name is required; an optional field left out keeps its value, an empty one clears it. JSON, or a form carrying an optional `logo` file (checked like the profile picture); `remove_logo: true` takes the logo off.',
      auth: 'bearer',
      body: {
        kind: 'json-or-multipart',
        json: schoolDetailsSchema,
        name: 'SchoolDetailsRequest',
        multipart: withLogo(schoolDetailsSchema),
      },
      data: z.object({ school: schoolDetailsWire }),
      errors: [413, 422, 503],
    },
    async (c, { session, reply }) => {
      const { fields, file } = await fieldsAndFile(c, 'logo')
      const { db, files } = c.get('ctx')
      const saved = await saveSchoolDetails({ db, files, userId: session.user.id, input: parse(schoolDetailsSchema, fields), logo: file })
      return reply({ school: schoolDetailsJson(saved)! }, say(c, 'accounts.school.saved'))
    },
  )

  route(
    {
      method: 'delete',
      path: '/auth/profile/school/logo',
      tag: 'Auth',
      summary: 'Remove the school’s logo',
      auth: 'bearer',
      errors: [404, 503],
    },
    async (c, { session, reply }) => {
      const { db, files } = c.get('ctx')
      if (!(await removeSchoolLogo({ db, files, userId: session.user.id }))) throw new DomainError(404, 'accounts.school.noLogo')
      return reply(null, say(c, 'accounts.school.logoRemoved'))
    },
  )

  route(
    {
      method: 'post',
      path: '/auth/resend-code',
      tag: 'Auth',
      summary: 'Email a code again',
      description: '`change_email` and `change_password` need the owner’s token; one request a minute.',
      auth: 'optional',
      body: { kind: 'json', schema: resendSchema, name: 'ResendCodeRequest' },
      errors: [422, 429],
    },
    async (c, { body, session, reply }) => {
      // A change of email or password needs its owner's token; activation and reset need none.
      await resendCode({ ...c.get('ctx'), input: { ...body, lang: apiLang(c) }, currentUser: session?.user ?? null })
      return reply(null, say(c, 'accounts.verify.resent'))
    },
  )

  route(
    {
      method: 'post',
      path: '/auth/forgot-password',
      tag: 'Auth',
      summary: 'Start a password reset',
      description: 'The same answer whether or not the email exists.',
      auth: 'none',
      body: { kind: 'json', schema: forgotPasswordSchema, name: 'ForgotPasswordRequest' },
      data: z.object({ temporary_token: z.string().describe('Lives one hour') }),
      errors: [422, 429],
    },
    async (c, { body, reply }) => {
      const { temporaryToken } = await requestPasswordReset({ ...c.get('ctx'), input: { email: body.email, lang: apiLang(c) } })
      return reply({ temporary_token: temporaryToken }, say(c, 'accounts.messages.resetSent'))
    },
  )

  route(
    {
      method: 'post',
      path: '/auth/verify-code',
      tag: 'Auth',
      summary: 'Check the reset code',
      auth: 'none',
      body: { kind: 'json', schema: verifyResetCodeSchema, name: 'VerifyCodeRequest' },
      data: z.object({ temporary_token: z.string() }),
      errors: [422, 429],
    },
    async (c, { body, reply }) => {
      const { temporaryToken } = await verifyResetCode({ ...c.get('ctx'), input: body })
      return reply({ temporary_token: temporaryToken }, say(c, 'accounts.api.codeVerified'))
    },
  )

  route(
    {
      method: 'post',
      path: '/auth/reset-password',
      tag: 'Auth',
      summary: 'Set a new password',
      auth: 'none',
      body: { kind: 'json', schema: resetPasswordSchema, name: 'ResetPasswordRequest' },
      errors: [422, 429],
    },
    async (c, { body, reply }) => {
      await resetPassword({ ...c.get('ctx'), input: body })
      return reply(null, say(c, 'accounts.messages.resetDone'))
    },
  )

  // Two steps on one endpoint: a body with `code` confirms, any other body requests.
  const isConfirmation = (body: unknown) => isRecord(body) && 'code' in body

  route(
    {
      method: 'post',
      path: '/auth/change-password',
      tag: 'Auth',
      summary: 'Change the password (two steps)',
      description: 'Step 1 emails a code; step 2 (`{code}`) applies it, ends every session and answers a new token.',
      auth: 'bearer',
      body: {
        kind: 'json-one-of',
        schemas: [
          { name: 'ChangePasswordRequest', schema: changePasswordSchema },
          { name: 'ConfirmCodeRequest', schema: confirmCodeSchema },
        ],
      },
      data: z.object({ token: z.string().describe('Step 2: a new token (every other session ends)') }).nullable(),
      errors: [422, 429],
    },
    async (c, { session, reply }) => {
      const body = await jsonBody(c)
      if (isConfirmation(body)) {
        await confirmPasswordChange({ ...c.get('ctx'), user: session.user, input: parse(confirmCodeSchema, body) })
        // The change ends every session of the account, this token included (a stolen token
        // must not survive it). The device that made the change is signed in again: without a
        // new token the client would have to ask for the password it has just set
        // (docs/decisions/003).
        return reply({ token: await newApiToken(c, session.user.id) }, say(c, 'accounts.messages.passwordChanged'))
      }
      await requestPasswordChange({
        ...c.get('ctx'),
        user: session.user,
        input: { ...parse(changePasswordSchema, body), lang: apiLang(c) },
      })
      return reply(null, say(c, 'accounts.messages.codeSent'))
    },
  )

  route(
    {
      method: 'post',
      path: '/auth/change-email',
      tag: 'Auth',
      summary: 'Change the email (two steps)',
      description: 'Step 1 emails a code to the new address; step 2 (`{code}`) applies it.',
      auth: 'bearer',
      body: {
        kind: 'json-one-of',
        schemas: [
          { name: 'ChangeEmailRequest', schema: changeEmailSchema },
          { name: 'ConfirmCodeRequest', schema: confirmCodeSchema },
        ],
      },
      data: z.object({ user: userWire }).nullable(),
      errors: [422, 429],
    },
    async (c, { session, reply }) => {
      const body = await jsonBody(c)
      if (isConfirmation(body)) {
        const updated = await confirmEmailChange({ ...c.get('ctx'), user: session.user, input: parse(confirmCodeSchema, body) })
        return reply({ user: await userJson(c, updated) }, say(c, 'accounts.profile.emailChanged'))
      }
      await requestEmailChange({ ...c.get('ctx'), user: session.user, input: { ...parse(changeEmailSchema, body), lang: apiLang(c) } })
      return reply(null, say(c, 'accounts.messages.codeSent'))
    },
  )

  route(
    {
      method: 'get',
      path: '/notifications',
      tag: 'Notifications and reviews',
      summary: 'The user’s notifications',
      auth: 'bearer',
      data: z.array(notificationWire),
    },
    async (c, { session, reply }) => {
      const t = apiTranslator(c, ['notifications.kinds'])
      // A kind without a text in this language (a newer feature's) reads as a plain "Notification".
      const text = (kind: string, part: 'title' | 'body', params: Record<string, string | number>) => {
        const key = `notifications.kinds.${kind}.${part}`
        const value = t(key, params)
        return value === key ? t(`notifications.kinds.unknown.${part}`) : value
      }
      const rows = await listNotifications({ db: c.get('ctx').db, userId: session.user.id })
      const data: Array<Wire<typeof notificationWire>> = rows.map((n) => ({
        id: n.id,
        kind: n.kind,
        title: text(n.kind, 'title', n.params),
        body: text(n.kind, 'body', n.params),
        read_at: n.readAt?.toISOString() ?? null,
        created_at: n.createdAt.toISOString(),
      }))
      return reply(data)
    },
  )

  route(
    {
      method: 'post',
      path: '/notifications/read-all',
      tag: 'Notifications and reviews',
      summary: 'Mark every notification read',
      auth: 'bearer',
    },
    async (c, { session, reply }) => {
      await markAllNotificationsRead({ db: c.get('ctx').db, userId: session.user.id })
      return reply(null, say(c, 'accounts.messages.saved'))
    },
  )

  route(
    {
      method: 'post',
      path: '/notifications/{id}/read',
      tag: 'Notifications and reviews',
      summary: 'Mark one notification read',
      auth: 'bearer',
      errors: [404],
    },
    async (c, { session, reply }) => {
      // Another user's notification is "not found", never "forbidden".
      if (!(await markNotificationRead({ db: c.get('ctx').db, userId: session.user.id, id: c.req.param('id') ?? '' })))
        throw new DomainError(404, 'common.errors.notFoundApi')
      return reply(null, say(c, 'accounts.messages.saved'))
    },
  )

  route(
    {
      method: 'get',
      path: '/reviews',
      tag: 'Notifications and reviews',
      summary: 'Approved reviews',
      auth: 'none',
      data: z.array(reviewWire),
    },
    async (c, { reply }) => {
      const rows = await listApprovedReviews({ db: c.get('ctx').db })
      const data: Array<Wire<typeof reviewWire>> = rows.map((r) => ({
        id: r.id,
        rating: r.rating,
        comment: r.comment,
        username: r.username,
        created_at: r.createdAt.toISOString(),
      }))
      return reply(data)
    },
  )

  route(
    {
      method: 'post',
      path: '/reviews',
      tag: 'Notifications and reviews',
      summary: 'Leave a review (shown once approved)',
      auth: 'bearer',
      body: { kind: 'json', schema: reviewSchema, name: 'ReviewRequest' },
      status: 201,
      data: reviewReceivedWire,
      errors: [422],
    },
    async (c, { body, session, reply }) => {
      const review = await createReview({ db: c.get('ctx').db, userId: session.user.id, input: body })
      return reply(
        { id: review.id, rating: review.rating, comment: review.comment, status: review.status },
        say(c, 'accounts.messages.reviewThanks'),
      )
    },
  )

  return routes
}
