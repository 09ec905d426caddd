import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer, type SMTPServerOptions } from 'smtp-server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLogger } from './logger.server.ts'
import { createMailer, type MailMessage } from './mail.server.ts'

const logger = createLogger('silent')
const FROM = 'Hallil <no-reply@hallil.test>'

const message: MailMessage = {
  to: 'noura@school.sa',
  subject: 'رمز تفعيل حسابك في حلّل',
  text: 'مرحباً نورة،\n\n482913\n',
  html: '<!doctype html><html lang="ar" dir="rtl"><body><p>482913</p></body></html>',
  lang: 'ar',
  consoleHint: 'activation code for noura@school.sa: 482913',
}

type Received = { mail: ParsedMail; from: string; to: string[]; user?: string }

/** A real SMTP server on a free loopback port that keeps what it receives. */
async function startSmtpServer(options: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            mail,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((a) => a.address),
            user: session.user as string | undefined,
          })
          callback()
        })
        .catch(callback)
    },
    ...options,
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  servers.push(server)
  return { port, received }
}

const servers: SMTPServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
})

describe('outbox mailer', () => {
  it('writes each message as a private, parseable .eml with its language', async () => {
    const outboxDir = path.join(mkdtempSync(path.join(tmpdir(), 'hallil-mail-')), 'outbox')
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    const mailer = createMailer({ from: FROM, outboxDir, logger })
    expect(mailer.kind).toBe('outbox')

    await mailer.send(message)
    await mailer.send({ ...message, to: 'sara@school.sa', lang: 'en', subject: 'Your Hallil activation code', consoleHint: undefined })
    const hints = info.mock.calls.map((args) => args.join(' '))
    info.mockRestore()

    const files = readdirSync(outboxDir).filter((f) => f.endsWith('.eml'))
    expect(files).toHaveLength(2)
    const mails = await Promise.all(files.map((f) => simpleParser(readFileSync(path.join(outboxDir, f)))))
    const arabic = mails.find((m) => m.headers.get('content-language') === 'ar')
    expect(arabic).toBeDefined()
    expect(arabic!.subject).toBe(message.subject)
    expect(arabic!.text).toBe(message.text)
    expect(arabic!.html).toContain('dir="rtl"')
    expect(arabic!.from?.value).toEqual([{ name: 'Hallil', address: 'no-reply@hallil.test' }])
    expect(arabic!.to && !Array.isArray(arabic!.to) ? arabic!.to.text : '').toBe('noura@school.sa')
    expect(mails.find((m) => m.headers.get('content-language') === 'en')?.subject).toBe('Your Hallil activation code')
    // The outbox holds codes: only its owner may read it.
    for (const file of files) expect(statSync(path.join(outboxDir, file)).mode & 0o777).toBe(0o600)
    // The hint is printed for the developer, once, and only when given.
    expect(hints).toEqual(['[outbox] activation code for noura@school.sa: 482913'])
  })
})

describe('SMTP mailer', () => {
  it('delivers to a real SMTP server with the subject, text, HTML and language', async () => {
    const { port, received } = await startSmtpServer()
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}?tls=off`, from: FROM, outboxDir: '/nonexistent', logger })
    expect(mailer.kind).toBe('smtp')
    await mailer.send(message)
    mailer.close()

    expect(received).toHaveLength(1)
    const [{ mail, from, to }] = received as [Received]
    expect(from).toBe('no-reply@hallil.test')
    expect(to).toEqual(['noura@school.sa'])
    expect(mail.subject).toBe(message.subject)
    expect(mail.text).toBe(message.text)
    expect(mail.html).toContain('482913')
    expect(mail.headers.get('content-language')).toBe('ar')
  })

  it('signs in with the user and password of the URL, decoded', async () => {
    const logins: Array<{ username?: string | null; password?: string | null }> = []
    const { port, received } = await startSmtpServer({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        logins.push({ username: auth.username, password: auth.password })
        if (auth.username === 'mailer@hallil.sa' && auth.password === 'p@ss:w/rd') callback(null, { user: auth.username })
        else callback(new Error('Invalid username or password'))
      },
    })
    const smtpUrl = `smtp://${encodeURIComponent('mailer@hallil.sa')}:${encodeURIComponent('p@ss:w/rd')}@127.0.0.1:${port}?tls=off`
    const mailer = createMailer({ smtpUrl, from: FROM, outboxDir: '/nonexistent', logger })
    await mailer.send({ ...message, lang: 'en', subject: 'Your Hallil activation code' })
    mailer.close()

    expect(logins).toEqual([{ username: 'mailer@hallil.sa', password: 'p@ss:w/rd' }])
    expect(received.map((r) => [r.user, r.mail.subject])).toEqual([['mailer@hallil.sa', 'Your Hallil activation code']])
  })

  it('rejects when the server refuses the message, so the caller can log it', async () => {
    const { port, received } = await startSmtpServer({
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }))
      },
    })
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}?tls=off`, from: FROM, outboxDir: '/nonexistent', logger })
    await expect(mailer.send(message)).rejects.toThrow(/550/)
    mailer.close()
    expect(received).toEqual([])
  })
})
