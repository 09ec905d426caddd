// The pages a teacher meets, signed in and subscribed, in both languages, both colour modes, at
// 1280 and 390 px, for looking at before a change lands (issue 16): the home (guest and signed
// in), the packages once subscribed, both reports, the test builder, the print page, the
// follow-up pages (settings, register, templates, messages, trends, comparison), and the printed
// test and its key as PNG pages (pdftoppm). Starts the built server on a fresh PGlite.
//
//   npm run build && npx tsx scripts/review-screens.ts [outDir]   (default .tmp/review-screens)
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { simpleParser } from 'mailparser'
import { chromium, type APIRequestContext, type APIResponse } from 'playwright-core'
import { absenceWorkbook, firstSunday, threeUploads } from '#tests/follow-up-workbooks.ts'
import { sampleExamBody } from '#tests/support/exam-body.ts'
import { root, startServer } from '#tests/support/server-process.ts'

const outDir = path.resolve(process.argv[2] ?? '.tmp/review-screens')
mkdirSync(outDir, { recursive: true })
const PASSWORD = 'Review-Screens-42'

async function codeFor(outbox: string, email: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    let files: string[] = []
    try {
      files = readdirSync(outbox).filter((f) => f.endsWith('.eml'))
    } catch {
      // not written yet
    }
    for (const file of files) {
      const mail = await simpleParser(readFileSync(path.join(outbox, file)))
      const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(',') : (mail.to?.text ?? '')
      const code = to.includes(email) ? /\b(\d{6})\b/.exec(mail.text ?? '')?.[1] : undefined
      if (code) return code
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no code for ${email}`)
}

async function ok(step: string, answer: Promise<APIResponse>): Promise<APIResponse> {
  const res = await answer
  if (res.status() >= 400) throw new Error(`${step}: ${res.status()} ${(await res.text()).slice(0, 300)}`)
  return res
}

const server = await startServer({ name: 'review-screens', database: 'pglite' })
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
})
try {
  const base = server.url
  const setup = await browser.newContext({ baseURL: base })
  const request: APIRequestContext = setup.request
  const email = `review-${Date.now().toString(36)}@school.example`
  const json = { 'accept-language': 'ar' }
  await ok(
    'register',
    request.post('/api/v1/auth/register', {
      headers: json,
      data: { username: 'noura_teacher', email, phone: '0551234567', password: PASSWORD, password_confirmation: PASSWORD, terms: true },
    }),
  )
  const activated = await ok(
    'activate',
    request.post('/api/v1/auth/activate', { data: { email, code: await codeFor(path.join(server.dataDir, 'outbox'), email) } }),
  )
  const token = ((await activated.json()) as { data: { token: string } }).data.token
  const bearer = { authorization: `Bearer ${token}` }
  const form = (fields: Record<string, string>) => ({ form: fields, headers: { origin: base } })
  await ok('login', request.post('/ar/login', form({ email, password: PASSWORD })))
  const checkout = await ok('checkout', request.post('/ar/checkout/1', form({ method: 'mada' })))
  const pay = checkout.url().replace(base, '')
  await ok(
    'card',
    request.post(pay, form({ intent: 'card', number: '4111 1111 1111 1111', name: 'NOURA ALQAHTANI', expiry: '12/30', cvc: '123' })),
  )
  await ok('3-D Secure', request.post(pay, form({ intent: 'confirm' })))

  const upload = async (
    kind: 'absence' | 'grades',
    file = readFileSync(path.join(root, `app/features/${kind}/fixtures/small-ar.xlsx`)),
  ) => {
    const res = await ok(
      kind,
      request.post(`/api/v1/analyses/${kind}`, {
        headers: bearer,
        multipart: { file: { name: 'report.xlsx', mimeType: 'application/octet-stream', buffer: file } },
      }),
    )
    return ((await res.json()) as { data: { id: string } }).data.id
  }
  // The follow-up pages' three uploads of one class a month apart (tests/follow-up-workbooks.ts).
  const followUpIds: string[] = []
  for (const u of threeUploads) followUpIds.push(await upload('absence', Buffer.from(absenceWorkbook(u.students, firstSunday, u.days))))
  const absenceId = await upload('absence')
  const gradesId = await upload('grades')
  const long = sampleExamBody({
    title: 'اختبار الفترة الأولى لمادة العلوم للصف الخامس الابتدائي — الفصل الدراسي الأول',
    school_name: 'مدرسة الأمير سلطان بن عبدالعزيز الابتدائية الأولى بالرياض',
  })
  const examRes = await ok('exam', request.post('/api/v1/exams', { headers: bearer, data: long }))
  const examId = ((await examRes.json()) as { data: { id: string } }).data.id
  const state = await setup.storageState()
  await setup.close()

  const pages = [
    ['home-guest', '', false],
    ['home', '', true],
    ['packages', '/packages', true],
    ['absence-report', `/single-analysis?id=${absenceId}`, true],
    ['grades-report', `/single-analysis?id=${gradesId}`, true],
    ['builder', `/exams-test?id=${examId}`, true],
    ['print', `/exams/${examId}/print`, true],
    ['absence-settings', '/absence-settings', true],
    ['follow-up', '/follow-up', true],
    ['message-templates', '/message-templates', true],
    ['parent-messages', `/parent-messages?id=${followUpIds.at(-1)}&step=1`, true],
    ['absence-trends', '/absence-trends', true],
    ['absence-compare', `/absence-compare?a=${followUpIds[0]}&b=${followUpIds.at(-1)}`, true],
  ] as const
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      for (const signedIn of [false, true]) {
        const context = await browser.newContext({
          baseURL: base,
          colorScheme: scheme,
          viewport: { width, height: 900 },
          reducedMotion: 'reduce',
          ...(signedIn && { storageState: state }),
        })
        const page = await context.newPage()
        for (const lang of ['ar', 'en'] as const) {
          for (const [name, p, needsSession] of pages) {
            if (needsSession !== signedIn) continue
            await page.goto(`/${lang}${p}`, { waitUntil: 'networkidle' })
            await page.evaluate(() => document.querySelectorAll('[data-reveal]').forEach((el) => el.classList.add('is-revealed')))
            await page.screenshot({ path: path.join(outDir, `${name}-${lang}-${scheme}-${width}.png`), fullPage: true })
          }
        }
        await context.close()
      }
    }
  }
  // The printed test and its key, as paper: PDF pages to PNG.
  const context = await browser.newContext({ baseURL: base, storageState: state })
  for (const lang of ['ar', 'en'] as const) {
    for (const [name, query] of [
      ['test', ''],
      ['key', '?answers=1'],
    ] as const) {
      const pdf = await ok(`${name} pdf`, context.request.get(`/${lang}/exams/${examId}/pdf${query}`))
      const file = path.join(outDir, `printed-${name}-${lang}.pdf`)
      writeFileSync(file, await pdf.body())
      execFileSync('pdftoppm', ['-png', '-r', '60', file, file.replace(/\.pdf$/, '')])
    }
  }
  await context.close()
  console.log(`screens in ${outDir}`)
} finally {
  await browser.close()
  await server.stop()
}
