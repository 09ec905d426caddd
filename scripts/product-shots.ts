// The pictures of the product on the guest home page, taken from the real app: an absence report
// of the tool's own sample file (light and dark) and the first page of a printed test, in Arabic
// and in English, written as small WebP files to public/product/, with the test's PDF beside
// them (the sample the tests tool links to). Run it again when the report
// or the printed test changes: `npm run build && npx tsx scripts/product-shots.ts`.
//
// It starts the built server on a fresh embedded database, registers and activates a teacher,
// pays with the sandbox gateway's test card, uploads the sample workbook the page offers and
// saves a test through the API, then photographs them in Chromium. Each picture's size goes to
// app/features/content/product-shots.json, which the home page reads.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { chromium, type Page } from 'playwright-core'
import sharp from 'sharp'
import { latestCodeFor } from '../tests/e2e/mail.ts'
import { sampleExamBody } from '../tests/support/exam-body.ts'
import { root, startServer } from '../tests/support/server-process.ts'

const outDir = path.join(root, 'public/product')
const password = 'Maa3rifa-Tahlil9'
/** The widths the pictures are stored at (shown at up to about half the page's width). */
const REPORT_WIDTH = 960
const TEST_WIDTH = 760

const englishExam = {
  title: 'Science test, first term',
  school_name: 'Al-Andalus Primary School',
  subject: 'Science',
  grade: 'Grade 5',
  info: 'Answer all the questions.',
  questions: [
    {
      type: 'multiple_choice',
      text: 'Which planet is closest to the Sun?',
      marks: 1,
      options: ['Mercury', 'Venus', 'Earth', 'Mars'],
      correct: 0,
    },
    { type: 'checkbox', text: 'Choose the mammals:', marks: 2, options: ['Whale', 'Eagle', 'Camel', 'Turtle'], correct: [0, 2] },
    { type: 'true_false', text: 'Water boils at 100 °C at sea level.', marks: 1, correct: true },
    { type: 'essay', text: 'Explain the water cycle in nature.', marks: 4, lines: 5 },
    {
      type: 'matching',
      text: 'Match each organ with its job:',
      marks: 3,
      pairs: [
        { left: 'Heart', right: 'Pumps blood' },
        { left: 'Lungs', right: 'Exchange gases' },
        { left: 'Stomach', right: 'Digests food' },
      ],
    },
    {
      type: 'fill_blank',
      text: 'The capital of Saudi Arabia is ___ and its largest port is ___.',
      marks: 2,
      answers: ['Riyadh', 'Jeddah'],
    },
  ],
}

/** Each picture's size, for the page's width and height attributes (no shift when it arrives). */
const sizes: Record<string, { width: number; height: number }> = {}

async function saveWebp(png: Buffer, file: string, width: number) {
  const webp = await sharp(png).resize({ width, withoutEnlargement: true }).webp({ quality: 78, effort: 6 }).toBuffer()
  writeFileSync(path.join(outDir, file), webp)
  const meta = await sharp(webp).metadata()
  sizes[file.replace(/\.webp$/, '')] = { width: meta.width, height: meta.height }
  console.log(`${file}: ${meta.width}×${meta.height}, ${(webp.length / 1024).toFixed(1)} KB`)
}

async function registerAndSubscribe(page: Page, outbox: string) {
  const email = `product-${Date.now()}@school.example`
  await page.goto('/ar/SignIn')
  await page.locator('input[name="username"]').fill('نورة_المعلمة')
  await page.locator('input[name="email"]').fill(email)
  await page.locator('input[name="phone"]').fill('0551234567')
  await page.locator('input[name="password"]').fill(password)
  await page.locator('input[name="password_confirmation"]').fill(password)
  await page.locator('input[name="terms"]').check()
  await page.locator('form button[type="submit"]').click()
  await page.waitForURL(/verify-otp/)
  await page.locator('input[name="code"]').fill(await latestCodeFor(email, 0, outbox))
  await page.locator('button[value="verify"]').click()
  await page.waitForURL(/\/ar$/)
  await page.goto('/ar/checkout/1')
  await page.locator('main button[type="submit"]').click()
  await page.waitForURL(/sandbox-pay\?id=sbx_/)
  await page.locator('input[name="number"]').fill('4111 1111 1111 1111')
  await page.locator('input[name="name"]').fill('NOURA ALQAHTANI')
  await page.locator('input[name="expiry"]').fill('12/30')
  await page.locator('input[name="cvc"]').fill('123')
  await page.locator('button[value="card"]').click()
  await page.locator('button[value="confirm"]').click()
  await page.waitForURL(/\/ar\/payments\/result\//)
  return email
}

mkdirSync(outDir, { recursive: true })
const server = await startServer({ name: 'product-shots', database: 'pglite' })
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
try {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1.5 })
  const page = await context.newPage()
  const email = await registerAndSubscribe(page, server.outbox)
  const login = await page.request.post('/api/v1/auth/login', { data: { email, password } })
  const loginJson = (await login.json()) as { data?: { token?: string }; token?: string }
  const token = loginJson.data?.token ?? loginJson.token
  if (!token) throw new Error(`no API token: ${JSON.stringify(loginJson)}`)

  for (const lang of ['ar', 'en'] as const) {
    // The absence report of the sample file the tool offers, in this language.
    const sample = await page.request.get(`/${lang}/analysis/sample.xlsx`)
    await page.goto(`/${lang}/analysis`)
    await page.locator('.upload-form input[type="file"]').setInputFiles({
      name: lang === 'ar' ? 'غياب الفصل الأول.xlsx' : 'First term absence.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await sample.body(),
    })
    await page.locator('form.upload-form button[type="submit"]').click()
    await page.waitForURL(/\/single-analysis\?id=/)
    await page.locator('.report-header').waitFor()
    await page.locator('.chart-grid > figure').first().waitFor()
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      // From the report's title to the end of the first row of charts.
      const box = await page.evaluate(() => {
        const top = document.querySelector('.report-header')!.getBoundingClientRect().top + window.scrollY - 24
        const charts = [...document.querySelectorAll('.chart-grid > figure')].slice(0, 2)
        const bottom = Math.max(...charts.map((c) => c.getBoundingClientRect().bottom + window.scrollY)) + 24
        const container = document.querySelector('main .container')!.getBoundingClientRect()
        return { x: container.left, y: top, width: container.width, height: Math.min(bottom - top, 1100) }
      })
      const png = await page.screenshot({ clip: box, fullPage: true, animations: 'disabled' })
      await saveWebp(png, `report-${lang}-${scheme}.webp`, REPORT_WIDTH)
    }
    await page.emulateMedia({ colorScheme: 'light' })

    // A printed test: saved through the API, photographed from its print preview (the PDF's own pages).
    const body = lang === 'ar' ? sampleExamBody() : sampleExamBody(englishExam)
    const created = await page.request.post('/api/v1/exams', {
      data: body,
      headers: { Authorization: `Bearer ${token}`, 'Accept-Language': lang },
    })
    const createdJson = (await created.json()) as { data?: { id?: string }; id?: string }
    const examId = createdJson.data?.id ?? createdJson.id
    if (!examId) throw new Error(`the test was not saved: ${JSON.stringify(createdJson)}`)
    await page.goto(`/${lang}/exams/${examId}/print`)
    const sheet = page.locator('.exam-sheet').first()
    await sheet.waitFor()
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('.exam-sheet img')].every((img) => img.complete && img.naturalWidth > 0),
    )
    const sheetBox = (await sheet.boundingBox())!
    // The top of the first page: the school's header and the first questions.
    const png = await page.screenshot({
      clip: { ...sheetBox, height: Math.round(sheetBox.width * 0.92) },
      fullPage: true,
      animations: 'disabled',
    })
    await saveWebp(png, `test-${lang}.webp`, TEST_WIDTH)
    // The same test as a PDF: the sample the tests tool links to.
    const pdf = await page.request.get(`/${lang}/exams/${examId}/pdf`)
    if (!pdf.ok()) throw new Error(`the sample PDF: ${pdf.status()}`)
    const pdfBytes = await pdf.body()
    writeFileSync(path.join(outDir, `sample-test-${lang}.pdf`), pdfBytes)
    console.log(`sample-test-${lang}.pdf: ${(pdfBytes.length / 1024).toFixed(1)} KB`)
  }
  await context.close()
  writeFileSync(path.join(root, 'app/features/content/product-shots.json'), `${JSON.stringify(sizes, null, 2)}\n`)
} finally {
  await browser.close()
  await server.stop()
}
