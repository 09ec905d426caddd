import { data, Form, redirect, useNavigation } from 'react-router'
import {
  changeEmailSchema,
  changePasswordSchema,
  confirmCodeSchema,
  deleteAccountSchema,
  disableTwoFactorSchema,
  profileSchema,
  schoolDetailsSchema,
} from '#app/features/accounts/schemas.ts'
import { avatarUrl, schoolLogoUrl } from '#app/features/accounts/index.ts'
import {
  cancelTotpEnrolment,
  CLEAR_SITE_DATA,
  clearSessionCookie,
  confirmTotpEnrolment,
  deleteAccount,
  disableTotp,
  flashCookie,
  listSessions,
  pendingTotpEnrolment,
  requestEmailChange,
  requestPasswordChange,
  requireUser,
  revokeOtherSessions,
  revokeSession,
  saveSchoolDetails,
  schoolDetailsOf,
  startTotpEnrolment,
  unusedRecoveryCodes,
  updateProfile,
} from '#app/features/accounts/index.server.ts'
import { qrSvgDataUrl } from '#app/features/billing/index.server.ts'
import { formatDate } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { formFailure, parseForm, runForm } from '#app/lib/action.server.ts'
import { schoolStudents } from '#app/lib/constants.ts'
import { formValues } from '#app/lib/forms.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { localPath } from '#app/ui/app-link.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FileChooser } from '#app/ui/file-chooser.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/profile'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user, sessionId } = await requireUser(request, context, lang)
  const sessions = await listSessions({ db: context.db, userId: user.id, idleDays: context.env.SESSION_IDLE_DAYS })
  const pending = pendingTotpEnrolment(context, user)
  const twoFactor = user.totpEnabledAt
    ? { state: 'on' as const, since: user.totpEnabledAt, recoveryLeft: await unusedRecoveryCodes({ db: context.db, userId: user.id }) }
    : pending
      ? { state: 'pending' as const, key: pending.key, qr: qrSvgDataUrl(pending.uri) }
      : { state: 'off' as const }
  const school = await schoolDetailsOf({ db: context.db, userId: user.id })
  return {
    twoFactor,
    school: school && { ...school, logoUrl: schoolLogoUrl(school.logoFile) },
    messages: getMessages(lang, ['accounts']),
    user: {
      username: user.username,
      fullNameAr: user.fullNameAr,
      fullNameEn: user.fullNameEn,
      email: user.email,
      phone: user.phone,
      avatarUrl: avatarUrl(user.avatarFile),
    },
    sessions: sessions.map((s) => ({ ...s, isCurrent: s.id === sessionId })),
  }
}

// Re-exported, not declared here: the actions' own `headers` variables would shadow it.
export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user, sessionId } = await requireUser(request, context, lang)
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const done = (key: string, to = localPath(lang, 'profile')) => redirect(to, { headers: { 'Set-Cookie': flashCookie('success', key) } })

  switch (intent) {
    case 'profile': {
      const parsed = parseForm(profileSchema, form, ['username', 'full_name_ar', 'full_name_en', 'phone', 'intent'])
      if (!parsed.ok) return parsed.response
      const avatar = form.get('avatar')
      const bytes = avatar instanceof File && avatar.size > 0 ? new Uint8Array(await avatar.arrayBuffer()) : null
      return runForm(parsed.values, async () => {
        await updateProfile({ ...context, user, input: { ...parsed.data, avatar: bytes } })
        throw done('accounts.messages.saved')
      })
    }
    case 'school': {
      const parsed = parseForm(schoolDetailsSchema, form, [
        'school_name',
        'education_office',
        'principal_name',
        'counsellor_name',
        'students',
        'remove_logo',
        'intent',
      ])
      if (!parsed.ok) return parsed.response
      const logo = form.get('logo')
      const bytes = logo instanceof File && logo.size > 0 ? new Uint8Array(await logo.arrayBuffer()) : null
      return runForm(parsed.values, async () => {
        await saveSchoolDetails({ db: context.db, files: context.files, userId: user.id, input: parsed.data, logo: bytes })
        throw done('accounts.school.saved', `${localPath(lang, 'profile')}#school`)
      })
    }
    case 'password': {
      const parsed = parseForm(changePasswordSchema, form, ['current_password', 'password', 'password_confirmation', 'intent'])
      if (!parsed.ok) return parsed.response
      return runForm({ intent }, async () => {
        await requestPasswordChange({ ...context, user, input: { ...parsed.data, lang } })
        throw done('accounts.messages.codeSent', `${localPath(lang, 'verify-otp')}?purpose=change_password`)
      })
    }
    case 'email': {
      const parsed = parseForm(changeEmailSchema, form, ['email', 'password', 'intent'])
      if (!parsed.ok) return parsed.response
      return runForm(parsed.values, async () => {
        await requestEmailChange({ ...context, user, input: { ...parsed.data, lang } })
        throw done('accounts.messages.codeSent', `${localPath(lang, 'verify-otp')}?purpose=change_email`)
      })
    }
    case 'revoke': {
      await revokeSession({ ...context, sessionId: String(form.get('session') ?? ''), userId: user.id, reason: 'signed_out' })
      throw done('accounts.profile.signedOut')
    }
    case 'revoke-others': {
      await revokeOtherSessions({ ...context, userId: user.id, keepSessionId: sessionId })
      throw done('accounts.profile.signedOutOthers')
    }
    case 'totp-start': {
      return runForm({ intent }, async () => {
        await startTotpEnrolment({ ...context, user })
        throw done('accounts.twoFactor.started', `${localPath(lang, 'profile')}#two-factor`)
      })
    }
    case 'totp-confirm': {
      const parsed = parseForm(confirmCodeSchema, form, ['code', 'intent'])
      if (!parsed.ok) return parsed.response
      return runForm({ intent }, async () => {
        // Shown this once, in the answer: only the codes' HMACs are kept.
        const recoveryCodes = await confirmTotpEnrolment({ ...context, user, input: parsed.data })
        return data({ ok: true as const, recoveryCodes })
      })
    }
    case 'totp-cancel': {
      await cancelTotpEnrolment({ ...context, user })
      throw done('accounts.twoFactor.cancelled')
    }
    case 'totp-disable': {
      const parsed = parseForm(disableTwoFactorSchema, form, ['password', 'code', 'intent'])
      if (!parsed.ok) return parsed.response
      return runForm({ intent }, async () => {
        await disableTotp({ ...context, user, input: parsed.data })
        throw done('accounts.twoFactor.disabled')
      })
    }
    case 'delete': {
      const parsed = parseForm(deleteAccountSchema, form, ['password', 'intent'])
      if (!parsed.ok) return parsed.response
      return runForm({ intent }, async () => {
        await deleteAccount({ ...context, user, input: parsed.data })
        const headers = new Headers({ 'Clear-Site-Data': CLEAR_SITE_DATA })
        headers.append('Set-Cookie', clearSessionCookie(context.env))
        headers.append('Set-Cookie', flashCookie('success', 'accounts.profile.deleted'))
        throw redirect(localPath(lang), { headers })
      })
    }
    default:
      return formFailure(400, { _form: ['common.errors.unexpected'] }, formValues(form, []))
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'accounts.meta.profile', 'profile')

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const navigation = useNavigation()
  const submitting = navigation.state === 'submitting' ? String(navigation.formData?.get('intent') ?? '') : ''
  const values = actionData && !actionData.ok ? actionData.values : {}
  const all = actionData && !actionData.ok ? actionData.errors : {}
  const recoveryCodes = actionData && actionData.ok && 'recoveryCodes' in actionData ? actionData.recoveryCodes : null
  // Several forms share field names: show an answer's errors in the form that was sent.
  const errorsOf = (intent: string) => (values.intent === intent ? all : {})
  const { user, sessions, twoFactor, school } = loaderData
  return (
    <>
      <PageHero title={t('accounts.profile.title')} />
      <section className="section">
        <div className="container narrow profile-grid">
          <FormErrorNotice errors={all} />
          <article className="card" aria-labelledby="profile-details">
            <h2 id="profile-details">{t('accounts.profile.details')}</h2>
            <Form method="post" encType="multipart/form-data" className="form">
              <div className="profile-identity">
                {user.avatarUrl ? (
                  <img src={user.avatarUrl} alt="" className="avatar avatar-large" width={72} height={72} />
                ) : (
                  <span className="avatar avatar-large avatar-initial" aria-hidden="true">
                    {user.username.slice(0, 1)}
                  </span>
                )}
                <p dir="ltr" className="muted">
                  {user.email}
                </p>
              </div>
              <FormField id="pf-username" label={t('accounts.fields.username')} errors={errorsOf('profile').username} required>
                {(p) => (
                  <input
                    {...p}
                    name="username"
                    autoComplete="username"
                    maxLength={40}
                    defaultValue={values.username ?? user.username}
                    required
                  />
                )}
              </FormField>
              <FormField
                id="pf-full-name-ar"
                label={t('accounts.fields.fullNameAr')}
                hint={t('accounts.fields.fullNameArHint')}
                errors={errorsOf('profile').full_name_ar}
              >
                {(p) => (
                  <input
                    {...p}
                    name="full_name_ar"
                    dir="rtl"
                    lang="ar"
                    autoComplete="name"
                    maxLength={100}
                    defaultValue={values.full_name_ar ?? user.fullNameAr ?? ''}
                  />
                )}
              </FormField>
              <FormField
                id="pf-full-name-en"
                label={t('accounts.fields.fullNameEn')}
                hint={t('accounts.fields.fullNameEnHint')}
                errors={errorsOf('profile').full_name_en}
              >
                {(p) => (
                  <input
                    {...p}
                    name="full_name_en"
                    dir="ltr"
                    lang="en"
                    autoComplete="name"
                    maxLength={100}
                    defaultValue={values.full_name_en ?? user.fullNameEn ?? ''}
                  />
                )}
              </FormField>
              <FormField
                id="pf-phone"
                label={t('accounts.fields.phone')}
                hint={t('accounts.fields.phoneHint')}
                errors={errorsOf('profile').phone}
                required
              >
                {(p) => (
                  <input
                    {...p}
                    name="phone"
                    type="tel"
                    dir="ltr"
                    autoComplete="tel"
                    maxLength={20}
                    defaultValue={values.phone ?? user.phone}
                    required
                  />
                )}
              </FormField>
              <FormField
                id="pf-avatar"
                label={t('accounts.fields.avatar')}
                hint={t('accounts.fields.avatarHint')}
                errors={errorsOf('profile').avatar}
              >
                {(p) => (
                  <FileChooser
                    {...p}
                    name="avatar"
                    accept="image/png,image/jpeg,image/webp"
                    buttonLabel={t('common.fileChooser.chooseImage')}
                  />
                )}
              </FormField>
              <button type="submit" name="intent" value="profile" className="button button-primary" disabled={submitting === 'profile'}>
                {t('accounts.profile.save')}
              </button>
            </Form>
          </article>

          <article className="card" aria-labelledby="profile-school" id="school">
            <h2 id="profile-school">{t('accounts.school.title')}</h2>
            <p className="muted">{t('accounts.school.lead')}</p>
            <Form method="post" encType="multipart/form-data" className="form">
              <FormField
                id="sc-name"
                label={t('accounts.school.schoolName')}
                hint={t('accounts.school.schoolNameHint')}
                errors={errorsOf('school').school_name}
                required
              >
                {(p) => (
                  <input
                    {...p}
                    name="school_name"
                    autoComplete="organization"
                    maxLength={120}
                    defaultValue={values.school_name ?? school?.schoolName ?? ''}
                    required
                  />
                )}
              </FormField>
              <fieldset className="school-students" aria-describedby="sc-students-hint">
                <legend>{t('accounts.school.students')}</legend>
                <p id="sc-students-hint" className="field-hint">
                  {t('accounts.school.studentsHint')}
                </p>
                {schoolStudents.map((kind) => (
                  <label key={kind} className="method-option">
                    <input
                      type="radio"
                      name="students"
                      value={kind}
                      defaultChecked={(values.students ?? school?.students ?? 'boys') === kind}
                    />
                    <span>{t(kind === 'boys' ? 'accounts.school.studentsBoys' : 'accounts.school.studentsGirls')}</span>
                  </label>
                ))}
              </fieldset>
              <FormField
                id="sc-office"
                label={t('accounts.school.educationOffice')}
                hint={t('accounts.school.educationOfficeHint')}
                errors={errorsOf('school').education_office}
              >
                {(p) => (
                  <input
                    {...p}
                    name="education_office"
                    maxLength={120}
                    defaultValue={values.education_office ?? school?.educationOffice ?? ''}
                  />
                )}
              </FormField>
              <FormField
                id="sc-principal"
                label={t('accounts.school.principalName')}
                hint={t('accounts.school.optionalHint')}
                errors={errorsOf('school').principal_name}
              >
                {(p) => (
                  <input
                    {...p}
                    name="principal_name"
                    autoComplete="off"
                    maxLength={120}
                    defaultValue={values.principal_name ?? school?.principalName ?? ''}
                  />
                )}
              </FormField>
              <FormField
                id="sc-counsellor"
                label={t('accounts.school.counsellorName')}
                hint={t('accounts.school.optionalHint')}
                errors={errorsOf('school').counsellor_name}
              >
                {(p) => (
                  <input
                    {...p}
                    name="counsellor_name"
                    autoComplete="off"
                    maxLength={120}
                    defaultValue={values.counsellor_name ?? school?.counsellorName ?? ''}
                  />
                )}
              </FormField>
              {school?.logoUrl ? (
                <div className="school-logo-current">
                  <img src={school.logoUrl} alt={t('accounts.school.currentLogo')} className="school-logo" height={64} />
                  <div className="field-check">
                    <label htmlFor="sc-remove-logo">
                      <input id="sc-remove-logo" type="checkbox" name="remove_logo" value="on" /> {t('accounts.school.removeLogo')}
                    </label>
                  </div>
                </div>
              ) : null}
              <FormField
                id="sc-logo"
                label={t('accounts.school.logo')}
                hint={t('accounts.school.logoHint')}
                errors={errorsOf('school').logo}
              >
                {(p) => (
                  <FileChooser
                    {...p}
                    name="logo"
                    accept="image/png,image/jpeg,image/webp"
                    buttonLabel={t('common.fileChooser.chooseImage')}
                  />
                )}
              </FormField>
              <button type="submit" name="intent" value="school" className="button button-primary" disabled={submitting === 'school'}>
                {t('accounts.school.save')}
              </button>
            </Form>
          </article>

          <article className="card" aria-labelledby="profile-password">
            <h2 id="profile-password">{t('accounts.profile.changePassword')}</h2>
            <p className="muted">{t('accounts.profile.changePasswordLead')}</p>
            <Form method="post" className="form">
              <FormField
                id="pw-current"
                label={t('accounts.fields.currentPassword')}
                errors={errorsOf('password').current_password}
                required
              >
                {(p) => (
                  <input
                    {...p}
                    name="current_password"
                    type="password"
                    dir="ltr"
                    autoComplete="current-password"
                    maxLength={128}
                    required
                  />
                )}
              </FormField>
              <FormField
                id="pw-new"
                label={t('accounts.fields.newPassword')}
                hint={t('accounts.fields.passwordHint')}
                errors={errorsOf('password').password}
                required
              >
                {(p) => <input {...p} name="password" type="password" dir="ltr" autoComplete="new-password" maxLength={128} required />}
              </FormField>
              <FormField
                id="pw-confirm"
                label={t('accounts.fields.confirmPassword')}
                errors={errorsOf('password').password_confirmation}
                required
              >
                {(p) => (
                  <input
                    {...p}
                    name="password_confirmation"
                    type="password"
                    dir="ltr"
                    autoComplete="new-password"
                    maxLength={128}
                    required
                  />
                )}
              </FormField>
              <button type="submit" name="intent" value="password" className="button button-primary" disabled={submitting === 'password'}>
                {t('accounts.profile.sendCode')}
              </button>
            </Form>
          </article>

          <article className="card" aria-labelledby="profile-email">
            <h2 id="profile-email">{t('accounts.profile.changeEmail')}</h2>
            <p className="muted">{t('accounts.profile.changeEmailLead')}</p>
            <Form method="post" className="form">
              <FormField id="em-email" label={t('accounts.fields.newEmail')} errors={errorsOf('email').email} required>
                {(p) => (
                  <input
                    {...p}
                    name="email"
                    type="email"
                    dir="ltr"
                    autoComplete="email"
                    maxLength={254}
                    defaultValue={values.email}
                    required
                  />
                )}
              </FormField>
              <FormField id="em-password" label={t('accounts.fields.password')} errors={errorsOf('email').password} required>
                {(p) => <input {...p} name="password" type="password" dir="ltr" autoComplete="current-password" maxLength={128} required />}
              </FormField>
              <button type="submit" name="intent" value="email" className="button button-primary" disabled={submitting === 'email'}>
                {t('accounts.profile.sendCode')}
              </button>
            </Form>
          </article>

          <article className="card" aria-labelledby="profile-sessions">
            <h2 id="profile-sessions">{t('accounts.profile.sessions')}</h2>
            <p className="muted">{t('accounts.profile.sessionsLead')}</p>
            <ul className="session-list">
              {sessions.map((s) => (
                <li key={s.id}>
                  <div>
                    <strong>{s.device || (s.kind === 'api' ? t('accounts.profile.apiToken') : '—')}</strong>
                    {s.isCurrent ? <span className="badge-inline">{t('accounts.profile.thisDevice')}</span> : null}
                    {s.kind === 'api' ? <span className="badge-inline">{t('accounts.profile.apiToken')}</span> : null}
                    <p className="muted">{t('accounts.profile.lastSeen', { date: formatDate(lang, s.lastSeenAt).gregorian })}</p>
                  </div>
                  {s.isCurrent ? null : (
                    <Form method="post">
                      <input type="hidden" name="session" value={s.id} />
                      <button type="submit" name="intent" value="revoke" className="button button-ghost button-small">
                        {t('accounts.profile.signOut')}
                      </button>
                    </Form>
                  )}
                </li>
              ))}
            </ul>
            {sessions.length > 1 ? (
              <Form method="post">
                <button type="submit" name="intent" value="revoke-others" className="button button-ghost">
                  {t('accounts.profile.signOutOthers')}
                </button>
              </Form>
            ) : null}
          </article>

          <article className="card" aria-labelledby="profile-two-factor" id="two-factor">
            <h2 id="profile-two-factor">{t('accounts.twoFactor.title')}</h2>
            {recoveryCodes ? (
              <div className="notice notice-success" role="status">
                <p>
                  <strong>{t('accounts.twoFactor.enabled')}</strong>
                </p>
                <p>{t('accounts.twoFactor.recoveryLead')}</p>
                <ul className="recovery-codes" dir="ltr">
                  {recoveryCodes.map((code) => (
                    <li key={code}>
                      <code>{code}</code>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            {twoFactor.state === 'off' ? (
              <>
                <p className="muted">{t('accounts.twoFactor.offLead')}</p>
                <Form method="post">
                  <button
                    type="submit"
                    name="intent"
                    value="totp-start"
                    className="button button-primary"
                    disabled={submitting === 'totp-start'}
                  >
                    {t('accounts.twoFactor.start')}
                  </button>
                </Form>
              </>
            ) : null}
            {twoFactor.state === 'pending' ? (
              <>
                <p>{t('accounts.twoFactor.scan')}</p>
                <img src={twoFactor.qr} alt={t('accounts.twoFactor.qrAlt')} width={200} height={200} className="totp-qr" />
                <p>
                  {t('accounts.twoFactor.manual')}{' '}
                  <code dir="ltr" className="totp-key">
                    {twoFactor.key}
                  </code>
                </p>
                <Form method="post" className="form">
                  <FormField id="tf-confirm" label={t('accounts.twoFactor.confirmCode')} errors={errorsOf('totp-confirm').code} required>
                    {(p) => <input {...p} name="code" dir="ltr" inputMode="numeric" autoComplete="one-time-code" maxLength={12} required />}
                  </FormField>
                  <button
                    type="submit"
                    name="intent"
                    value="totp-confirm"
                    className="button button-primary"
                    disabled={submitting === 'totp-confirm'}
                  >
                    {t('accounts.twoFactor.turnOn')}
                  </button>
                </Form>
                <Form method="post">
                  <button type="submit" name="intent" value="totp-cancel" className="button button-ghost">
                    {t('accounts.twoFactor.cancel')}
                  </button>
                </Form>
              </>
            ) : null}
            {twoFactor.state === 'on' ? (
              <>
                <p>{t('accounts.twoFactor.onSince', { date: formatDate(lang, twoFactor.since).gregorian })}</p>
                <p className="muted">{t('accounts.twoFactor.recoveryLeft', { count: twoFactor.recoveryLeft })}</p>
                <p className="muted">{t('accounts.twoFactor.disableLead')}</p>
                <Form method="post" className="form">
                  <FormField id="tf-password" label={t('accounts.fields.password')} errors={errorsOf('totp-disable').password} required>
                    {(p) => (
                      <input {...p} name="password" type="password" dir="ltr" autoComplete="current-password" maxLength={128} required />
                    )}
                  </FormField>
                  <FormField id="tf-code" label={t('accounts.twoFactor.login.code')} errors={errorsOf('totp-disable').code} required>
                    {(p) => (
                      <input
                        {...p}
                        name="code"
                        dir="ltr"
                        autoComplete="one-time-code"
                        autoCapitalize="none"
                        spellCheck={false}
                        maxLength={16}
                        required
                      />
                    )}
                  </FormField>
                  <button
                    type="submit"
                    name="intent"
                    value="totp-disable"
                    className="button button-ghost"
                    disabled={submitting === 'totp-disable'}
                  >
                    {t('accounts.twoFactor.turnOff')}
                  </button>
                </Form>
              </>
            ) : null}
          </article>

          <article className="card card-danger" aria-labelledby="profile-delete">
            <h2 id="profile-delete">{t('accounts.profile.delete')}</h2>
            <p>{t('accounts.profile.deleteLead')}</p>
            {/* A document submission, as logging out: the answer clears the site's storage. */}
            <Form method="post" reloadDocument className="form">
              <FormField id="del-password" label={t('accounts.fields.password')} errors={errorsOf('delete').password} required>
                {(p) => <input {...p} name="password" type="password" dir="ltr" autoComplete="current-password" maxLength={128} required />}
              </FormField>
              <button type="submit" name="intent" value="delete" className="button button-danger">
                {t('accounts.profile.deleteConfirm')}
              </button>
            </Form>
          </article>
        </div>
      </section>
    </>
  )
}
