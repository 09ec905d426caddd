import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { simpleParser } from 'mailparser'

const defaultOutbox = path.resolve('.tmp/e2e-data/outbox')

/** The newest code sent to an address, read from the e2e server's outbox as a teacher reads her mail. */
export async function latestCodeFor(email: string, after = 0, outbox = defaultOutbox): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const files = (() => {
      try {
        return readdirSync(outbox)
          .filter((f) => f.endsWith('.eml'))
          .toSorted()
          .toReversed()
      } catch {
        return []
      }
    })()
    for (const file of files) {
      const full = path.join(outbox, file)
      const mail = await simpleParser(readFileSync(full))
      const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(',') : (mail.to?.text ?? '')
      if (!to.toLowerCase().includes(email.toLowerCase())) continue
      if ((mail.date?.getTime() ?? 0) < after - 1000) continue
      const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1]
      if (code) return code
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no code in the outbox for ${email}`)
}

/** The newest mail to an address in an outbox, as its reader sees it (subject and text); waits a few seconds for it. */
export async function latestMailTo(email: string, outbox = defaultOutbox): Promise<{ subject: string; text: string }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    let files: string[] = []
    try {
      files = readdirSync(outbox)
        .filter((f) => f.endsWith('.eml'))
        .toSorted()
        .toReversed()
    } catch {
      files = []
    }
    for (const file of files) {
      const mail = await simpleParser(readFileSync(path.join(outbox, file)))
      const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(',') : (mail.to?.text ?? '')
      if (to.toLowerCase().includes(email.toLowerCase())) return { subject: mail.subject ?? '', text: mail.text ?? '' }
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no mail in the outbox for ${email}`)
}
