import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import nodemailer from 'nodemailer'
import type { Logger } from './logger.server.ts'
import { countMail } from './metrics.server.ts'

export type MailMessage = {
  to: string
  subject: string
  text: string
  html: string
  lang: 'ar' | 'en'
  /** Printed to the console in outbox mode, so a developer can sign up without a mail server. */
  consoleHint?: string
}

export type Mailer = {
  kind: 'smtp' | 'outbox'
  send(message: MailMessage): Promise<void>
  close(): void
}

export type MailerOptions = { smtpUrl?: string; from: string; outboxDir: string; logger: Logger }

/**
 * SMTP when SMTP_URL is set; otherwise every message is written to the outbox folder as an
 * .eml file (and its hint printed), so the quick start needs no mail server.
 */
export function createMailer({ smtpUrl, from, outboxDir, logger }: MailerOptions): Mailer {
  const build = (message: MailMessage) => ({
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: { 'Content-Language': message.lang },
  })

  if (smtpUrl) {
    const url = new URL(smtpUrl)
    const transport = nodemailer.createTransport({
      host: url.hostname,
      port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
      secure: url.protocol === 'smtps:',
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
      // A slow or dead mail server must not hold a teacher's request for long.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
      // Loopback test servers and internal relays without TLS are allowed by smtp://.
      ignoreTLS: url.searchParams.get('tls') === 'off',
    })
    return {
      kind: 'smtp',
      async send(message) {
        let info
        try {
          info = await transport.sendMail(build(message))
        } catch (error) {
          countMail('smtp', 'failed')
          throw error
        }
        countMail('smtp', 'sent')
        logger.info({ messageId: info.messageId }, 'mail sent')
      },
      close: () => transport.close(),
    }
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    kind: 'outbox',
    async send(message) {
      const stamp = new Date().toISOString().replace(/[:.]/g, '-')
      const file = path.join(outboxDir, `${stamp}-${Math.random().toString(36).slice(2, 8)}.eml`)
      try {
        const info = await transport.sendMail(build(message))
        mkdirSync(outboxDir, { recursive: true })
        writeFileSync(file, info.message as Buffer, { mode: 0o600 })
      } catch (error) {
        countMail('outbox', 'failed')
        throw error
      }
      countMail('outbox', 'sent')
      logger.info({ file: path.basename(file) }, 'mail written to the outbox')
      if (message.consoleHint) console.info(`[outbox] ${message.consoleHint}`)
    },
    close: () => {},
  }
}
