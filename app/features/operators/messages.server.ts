import { and, count, desc, eq, isNotNull, isNull } from 'drizzle-orm'
import { dirOf, type Lang } from '#app/i18n/config.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator } from '#app/i18n/translate.ts'
import { isUuid } from '#app/lib/ids.ts'
import { DomainError } from '#app/lib/errors.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { contactMessages } from '#app/platform/db/schema.ts'
import type { Logger } from '#app/platform/logger.server.ts'
import type { Mailer } from '#app/platform/mail.server.ts'
import { recordOperatorAction, type Operator } from './audit.server.ts'
import type { MessageFilter } from './message-filters.ts'

// Contact messages as the operators work through them: read, answered by mail through the
// app's mailer (the answer and its sender kept with the message), marked handled.

export const MESSAGES_PAGE_SIZE = 30

export type ContactMessage = typeof contactMessages.$inferSelect

export type ListContactMessagesOptions = { db: Db; filter: MessageFilter; page: number; pageSize?: number }

/** A page of messages, newest first: the open ones (not handled), the handled ones, or all. */
export async function listContactMessages({ db, filter, page, pageSize = MESSAGES_PAGE_SIZE }: ListContactMessagesOptions) {
  const where =
    filter === 'open' ? isNull(contactMessages.handledAt) : filter === 'handled' ? isNotNull(contactMessages.handledAt) : undefined
  const [total] = await db.select({ n: count() }).from(contactMessages).where(where)
  const [open] = await db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.handledAt))
  const pages = Math.max(1, Math.ceil((total?.n ?? 0) / pageSize))
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages)
  const list: ContactMessage[] = await db
    .select()
    .from(contactMessages)
    .where(where)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(pageSize)
    .offset((current - 1) * pageSize)
  return { messages: list, page: current, pages, total: total?.n ?? 0, open: open?.n ?? 0 }
}

export type FindContactMessageOptions = { db: Db; id: string }

/** One message, or a 404 DomainError. */
export async function findContactMessage({ db, id }: FindContactMessageOptions): Promise<ContactMessage> {
  if (!isUuid(id)) throw new DomainError(404, 'operators.errors.messageNotFound')
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1)
  if (!row) throw new DomainError(404, 'operators.errors.messageNotFound')
  return row
}

export type MarkMessageHandledOptions = { db: Db; operator: Operator; id: string }

/** Marks a message handled (409 when it already is), and logs it. */
export async function markMessageHandled({ db, operator, id }: MarkMessageHandledOptions): Promise<void> {
  const message = await findContactMessage({ db, id })
  await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(contactMessages)
      .set({ handledAt: new Date(), handledBy: operator.id })
      .where(and(eq(contactMessages.id, message.id), isNull(contactMessages.handledAt)))
      .returning({ id: contactMessages.id })
    if (!changed) throw new DomainError(409, 'operators.errors.messageHandled')
    await recordOperatorAction({ db: tx, operator, action: 'message.handle', target: { type: 'contact_message', id: message.id } })
  })
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The answer as mailed, in the language the message was written in, quoting it below. */
export function answerEmail(lang: Lang, input: { name: string; answer: string; original: string }) {
  const { t } = createTranslator(lang, getMessages(lang, ['operators', 'emails']))
  const subject = t('operators.messages.mail.subject')
  const greeting = t('emails.greeting', { name: input.name })
  const quoteLead = t('operators.messages.mail.yourMessage')
  const signature = t('emails.signature')
  const text = [greeting, '', input.answer, '', signature, '', `— ${quoteLead}`, ...input.original.split('\n').map((l) => `> ${l}`)].join(
    '\n',
  )
  const dir = dirOf(lang)
  const paragraphs = (s: string) =>
    s
      .split(/\n{2,}/)
      .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
      .join('\n')
  const html = `<!doctype html>
<html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7f6;font-family:Tahoma,Arial,sans-serif;color:#17201e">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:28px;text-align:${dir === 'rtl' ? 'right' : 'left'}" dir="${dir}">
<p style="font-size:20px;font-weight:bold;color:#0f5d52;margin:0 0 16px">${lang === 'ar' ? 'حلّل' : 'Hallil'}</p>
<p>${escapeHtml(greeting)}</p>
${paragraphs(input.answer)}
<p>${escapeHtml(signature)}</p>
<hr style="border:0;border-top:1px solid #d6dedc;margin:24px 0">
<p style="color:#4d5b58">${escapeHtml(quoteLead)}</p>
<blockquote style="margin:0;color:#4d5b58">${paragraphs(input.original)}</blockquote>
</div></body></html>`
  return { subject, text, html }
}

export type AnswerContactMessageOptions = { db: Db; mailer: Mailer; logger: Logger; operator: Operator; id: string; answer: string }

/**
 * Mails the answer to the message's sender, then keeps it (text, when, who) and marks the
 * message handled, logged. Mailed first: a failure (503) keeps nothing, so the operator can send
 * again. A message is answered once (409 after that).
 */
export async function answerContactMessage({ db, mailer, logger, operator, id, answer }: AnswerContactMessageOptions): Promise<void> {
  const message = await findContactMessage({ db, id })
  if (message.answeredAt) throw new DomainError(409, 'operators.errors.messageAnswered')
  const mail = answerEmail(message.lang, { name: message.name, answer, original: message.message })
  try {
    await mailer.send({ to: message.email, lang: message.lang, ...mail })
  } catch (error) {
    logger.error({ err: error, event: 'operator.message.mail_failed', messageId: message.id }, 'answer not sent')
    throw new DomainError(503, 'operators.errors.mailFailed')
  }
  const now = new Date()
  await db.transaction(async (tx) => {
    await tx
      .update(contactMessages)
      .set({
        answerText: answer,
        answeredAt: now,
        answeredBy: operator.id,
        answeredByEmail: operator.email,
        ...(message.handledAt ? {} : { handledAt: now, handledBy: operator.id }),
      })
      .where(eq(contactMessages.id, message.id))
    await recordOperatorAction({
      db: tx,
      operator,
      action: 'message.answer',
      target: { type: 'contact_message', id: message.id },
      detail: { lang: message.lang },
    })
  })
  logger.info({ event: 'operator.message.answered', messageId: message.id, operatorId: operator.id }, 'operator action')
}
