// Scenario 3: the mail server down at registration. The account must still be created (201),
// the code resent once the mail server is back (after the 60-second rule) and activation work.
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { check, is5xx, Recorder, registrationBody, sleep, startServer, type Check, type ScenarioResult } from './lib.ts'

type Received = { to: string; text: string; at: number }

function startSmtp(port: number, inbox: Received[]): Promise<SMTPServer> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text: mail.text ?? '', at: Date.now() })
          callback()
        },
        (error: Error) => callback(error),
      )
    },
  })
  return new Promise((resolve, reject) => {
    smtp.once('error', reject)
    smtp.listen(port, '127.0.0.1', () => resolve(smtp))
  })
}

const closeSmtp = (smtp: SMTPServer) => new Promise<void>((resolve) => smtp.close(() => resolve()))

export async function mailDown(options: { port: number; smtpPort: number }): Promise<ScenarioResult> {
  const rec = new Recorder()
  const checks: Check[] = []
  const notes: string[] = []
  const inbox: Received[] = []
  let smtp: SMTPServer | null = await startSmtp(options.smtpPort, inbox)
  const server = await startServer({
    name: 'maildown',
    port: options.port,
    env: { SMTP_URL: `smtp://127.0.0.1:${options.smtpPort}?tls=off` },
  })
  try {
    const api = `${server.url}/api/v1`
    const headers = { 'accept-language': 'en', 'x-forwarded-for': '10.77.0.1' }
    // Mail works: a first teacher gets her code (proves the SMTP path is live).
    const first = registrationBody('mail', 1)
    const r1 = await rec.request('POST auth/register (mail up)', `${api}/auth/register`, { json: first, headers })
    await waitFor(() => inbox.some((m) => m.to === first.email), 10_000)
    check(
      checks,
      'with the mail server up, registration mails the code',
      r1.status === 201 && inbox.some((m) => m.to === first.email),
      `status ${r1.status}`,
    )

    // Mail down.
    await closeSmtp(smtp)
    smtp = null
    const teacher = registrationBody('mail', 2)
    const registeredAt = Date.now()
    const r2 = await rec.request('POST auth/register (mail down)', `${api}/auth/register`, { json: teacher, headers, timeoutMs: 30_000 })
    check(checks, 'registration answers 201 with the mail server down', r2.status === 201, `status ${r2.status} in ${r2.ms.toFixed(0)} ms`)
    const early = await rec.request('POST auth/resend-code (mail down, <60 s)', `${api}/auth/resend-code`, {
      json: { email: teacher.email, purpose: 'activation' },
      headers,
    })
    check(
      checks,
      'a resend within 60 s is refused with 429 and Retry-After (not a 5xx)',
      early.status === 429 && Boolean(early.headers?.get('retry-after')),
      `status ${early.status}, Retry-After ${early.headers?.get('retry-after') ?? '-'}`,
    )
    const login = await rec.request('POST auth/login (not activated)', `${api}/auth/login`, {
      json: { email: teacher.email, password: teacher.password },
      headers,
    })
    notes.push(`login before activation answers ${login.status}`)

    // Mail back; the 60-second rule runs out; the code is sent again.
    smtp = await startSmtp(options.smtpPort, inbox)
    const wait = registeredAt + 61_000 - Date.now()
    notes.push(`waited ${Math.ceil(wait / 1000)} s for the 60-second resend rule`)
    if (wait > 0) await sleep(wait)
    const resend = await rec.request('POST auth/resend-code (mail up again)', `${api}/auth/resend-code`, {
      json: { email: teacher.email, purpose: 'activation' },
      headers,
    })
    check(checks, 'resend after 60 s answers 200', resend.status === 200, `status ${resend.status}`)
    await waitFor(() => inbox.some((m) => m.to === teacher.email), 15_000)
    const mail = inbox.find((m) => m.to === teacher.email)
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1]
    check(checks, 'the resent code is delivered by SMTP', Boolean(code), mail ? 'received' : 'nothing received')
    const activate = await rec.request('POST auth/activate (resent code)', `${api}/auth/activate`, {
      json: { email: teacher.email, code: code ?? '000000' },
      headers,
    })
    const token = (activate.body as { data?: { token?: string } })?.data?.token
    check(
      checks,
      'activation with the resent code works (200 and a token)',
      activate.status === 200 && Boolean(token),
      `status ${activate.status}`,
    )
    const profile = await rec.request('GET auth/profile', `${api}/auth/profile`, {
      headers: { ...headers, authorization: `Bearer ${token ?? ''}` },
    })
    check(checks, 'the activated account signs in with the token', profile.status === 200, `status ${profile.status}`)
    check(checks, 'no 5xx anywhere', rec.count(is5xx) === 0, `${rec.count(is5xx)}`)
    check(checks, 'the server stayed up', server.exitCode() === null)
    rec.finish()
    return {
      name: '3. Mail server down at registration (SMTP_URL → a local smtp-server, stopped and started)',
      recorder: rec,
      checks,
      notes,
    }
  } finally {
    if (smtp) await closeSmtp(smtp)
    await server.stop()
  }
}

async function waitFor(condition: () => boolean, ms: number) {
  const deadline = Date.now() + ms
  while (!condition() && Date.now() < deadline) await sleep(100)
}
