import { dirOf, type Lang } from '#app/i18n/config.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator } from '#app/i18n/translate.ts'
import type { CodePurpose } from '#app/platform/db/schema.ts'
import type { Logger } from '#app/platform/logger.server.ts'
import type { Mailer } from '#app/platform/mail.server.ts'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The code email in the reader's language: right to left HTML for Arabic, and a text part. */
export function codeEmail(lang: Lang, purpose: CodePurpose, name: string, code: string) {
  const { t } = createTranslator(lang, getMessages(lang, ['emails']))
  const subject = t(`emails.code.${purpose}.subject`)
  const lines = [
    t('emails.greeting', { name }),
    '',
    t(`emails.code.${purpose}.intro`),
    '',
    code,
    '',
    t('emails.expires'),
    t('emails.ignore'),
    '',
    t('emails.signature'),
  ]
  const dir = dirOf(lang)
  const html = `<!doctype html>
<html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7f6;font-family:Tahoma,Arial,sans-serif;color:#17201e">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:28px;text-align:${dir === 'rtl' ? 'right' : 'left'}" dir="${dir}">
<p style="font-size:20px;font-weight:bold;color:#0f5d52;margin:0 0 16px">${lang === 'ar' ? 'حلّل' : 'Hallil'}</p>
<p>${escapeHtml(t('emails.greeting', { name }))}</p>
<p>${escapeHtml(t(`emails.code.${purpose}.intro`))}</p>
<p dir="ltr" style="font-size:32px;letter-spacing:8px;font-weight:bold;text-align:center;background:#e3f1ee;border-radius:8px;padding:12px;margin:20px 0">${code}</p>
<p style="color:#4d5b58">${escapeHtml(t('emails.expires'))}</p>
<p style="color:#4d5b58">${escapeHtml(t('emails.ignore'))}</p>
<p>${escapeHtml(t('emails.signature'))}</p>
</div></body></html>`
  return { subject, text: lines.join('\n'), html }
}

/**
 * Sends a code. A mail failure is logged, not thrown: the account change stays, and the
 * code can be sent again once the mail server answers.
 */
export async function sendCodeEmail(options: {
  mailer: Mailer
  logger: Logger
  lang: Lang
  purpose: CodePurpose
  to: string
  name: string
  code: string
}): Promise<boolean> {
  const { subject, text, html } = codeEmail(options.lang, options.purpose, options.name, options.code)
  try {
    await options.mailer.send({
      to: options.to,
      subject,
      text,
      html,
      lang: options.lang,
      consoleHint: `${options.purpose} code for ${options.to}: ${options.code}`,
    })
    return true
  } catch (error) {
    // Only the error code: a mail server's message can quote the address.
    options.logger.error({ errCode: (error as { code?: string }).code ?? 'unknown', purpose: options.purpose }, 'mail not sent')
    return false
  }
}
