import { data, Form, redirect, useNavigation } from 'react-router'
import { flashCookie } from '#app/features/accounts/index.server.ts'
import {
  answerContactMessage,
  findContactMessage,
  limitOperatorWrites,
  markMessageHandled,
  operatorOf,
  operatorPageWrite,
  requireOperatorPage,
} from '#app/features/operators/index.server.ts'
import { answerMessageSchema } from '#app/features/operators/schemas.ts'
import { formatDate } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { isDomainError } from '#app/lib/errors.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { Sentence } from '#app/ui/sentence.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import type { Route } from './+types/admin-message'

// One contact message: read it, answer it by mail (the answer kept with it), or mark it handled.

const fields = ['answer'] as const

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireOperatorPage(request, context, lang)
  const message = await findContactMessage({ db: context.db, id: params.messageId }).catch((error: unknown) => {
    if (isDomainError(error) && error.status === 404) throw data(null, { status: 404, statusText: 'Not Found' })
    throw error
  })
  return {
    messages: getMessages(lang, ['operators', 'contact.types']),
    message: {
      id: message.id,
      name: message.name,
      email: message.email,
      type: message.type,
      lang: message.lang,
      text: message.message,
      createdAt: message.createdAt.toISOString(),
      handledAt: message.handledAt?.toISOString() ?? null,
      answer: message.answeredAt
        ? { text: message.answerText ?? '', at: message.answeredAt.toISOString(), by: message.answeredByEmail ?? '' }
        : null,
    },
  }
}

export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireOperatorPage(request, context, lang)
  const operator = operatorOf(user)
  const form = await request.formData()
  const back = localPath(lang, `admin/messages/${params.messageId}`)
  if (form.get('intent') === 'handle')
    return operatorPageWrite({
      context,
      operator,
      back,
      run: async () => {
        await markMessageHandled({ db: context.db, operator, id: params.messageId })
        return 'operators.messages.done.handle'
      },
    })
  // The answer keeps what was typed on a refusal (a mail server down, a limit reached).
  const parsed = parseForm(answerMessageSchema, form, fields)
  if (!parsed.ok) return parsed.response
  return runForm(parsed.values, async () => {
    await limitOperatorWrites({ db: context.db, operatorId: operator.id })
    await answerContactMessage({
      db: context.db,
      mailer: context.mailer,
      logger: context.logger,
      operator,
      id: params.messageId,
      answer: parsed.data.answer,
    })
    throw redirect(back, { headers: { 'Set-Cookie': flashCookie('success', 'operators.messages.done.answer') } })
  })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'operators.meta.message', 'admin/messages')

export default function AdminMessage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const navigation = useNavigation()
  const { message } = loaderData
  const serverErrors = actionData && !actionData.ok ? actionData.errors : undefined
  const values = actionData && !actionData.ok ? actionData.values : {}
  const { errors, onSubmit } = useSchemaForm(answerMessageSchema, fields, serverErrors)
  const busy = navigation.state === 'submitting'
  return (
    <>
      <p>
        <AppLink to="admin/messages">{t('operators.messages.back')}</AppLink>
      </p>
      <h1>
        <bdi>{message.name}</bdi>
      </h1>
      <p className="muted">
        <bdi dir="ltr">{message.email}</bdi> · {t(`contact.types.${message.type}`)} ·{' '}
        <time dateTime={message.createdAt}>{formatDate(lang, message.createdAt).gregorian}</time> ·{' '}
        {t(`operators.messages.languageOf.${message.lang}`)}
      </p>
      <blockquote className="card card-plain admin-message-text" lang={message.lang} dir="auto">
        {message.text}
      </blockquote>
      {message.answer ? (
        <section className="card card-plain" aria-labelledby="answer-title">
          <h2 id="answer-title">{t('operators.messages.answerTitle')}</h2>
          <p className="muted">
            <Sentence
              text={t('operators.messages.answered', { date: formatDate(lang, message.answer.at).gregorian })}
              values={{ email: <bdi dir="ltr">{message.answer.by}</bdi> }}
            />
          </p>
          <p className="admin-message-text" lang={message.lang} dir="auto">
            {message.answer.text}
          </p>
        </section>
      ) : (
        <section className="card card-plain" aria-labelledby="answer-title">
          <h2 id="answer-title">{t('operators.messages.answerTitle')}</h2>
          <FormErrorNotice errors={errors} />
          <Form method="post" noValidate className="form" onSubmit={onSubmit}>
            <FormField
              id="answer"
              label={t('operators.messages.answerLabel')}
              hint={<Sentence text={t('operators.messages.answerHint')} values={{ email: <bdi dir="ltr">{message.email}</bdi> }} />}
              errors={errors.answer}
              required
            >
              {(props) => (
                <textarea
                  {...props}
                  name="answer"
                  rows={8}
                  maxLength={5000}
                  defaultValue={values.answer}
                  lang={message.lang}
                  dir="auto"
                  required
                />
              )}
            </FormField>
            <button type="submit" name="intent" value="answer" className="button button-primary" disabled={busy}>
              {t('operators.messages.send')}
            </button>
          </Form>
        </section>
      )}
      {message.handledAt ? (
        <p className="muted">{t('operators.messages.handled', { date: formatDate(lang, message.handledAt).gregorian })}</p>
      ) : (
        <Form method="post" className="admin-actions">
          <button type="submit" name="intent" value="handle" className="button button-ghost">
            {t('operators.messages.markHandled')}
          </button>
        </Form>
      )}
    </>
  )
}
