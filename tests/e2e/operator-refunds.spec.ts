import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import type { Browser, BrowserContext } from '@playwright/test'
import { expect, test, type Page } from './fixtures.ts'
import { axe, downloadFrom } from './helpers.ts'
import { startOperatorServer, turnOnTwoFactor, type OperatorServer } from './operator.ts'
import { signedInTeacher, subscribedTeacher } from './teacher.ts'

// The operator area's money (issue 19): in Arabic, then English, an operator with two-step
// verification finds a subscribed teacher's payment, refunds it after the confirmation step,
// downloads the credit note; the teacher then sees the refund and downloads the same credit
// note. Monthly: 29.00 + 4.35 VAT = SAR 33.35, reversed to −33.35. On a server of the spec's own:
// making an operator needs the admin command, which on PGlite needs the server stopped.

test.describe.configure({ mode: 'serial' })

// A port of this worker's own, apart from the main e2e server's and the Moyasar spec's (+50).
const port = Number(process.env.E2E_PORT ?? 3100) + 7 + Number(process.env.TEST_WORKER_INDEX ?? 0)
const baseURL = `http://localhost:${port}`
test.use({ baseURL })

let server: OperatorServer
test.beforeAll(async () => {
  test.setTimeout(120_000)
  server = await startOperatorServer({ port, name: 'operator-money' })
})
test.afterAll(async () => {
  await server?.stop()
})

const shots = '.tmp/operator-money'
mkdirSync(shots, { recursive: true })

const words = {
  ar: {
    search: 'البريد أو الرقم',
    searchButton: 'بحث',
    open: 'فتح',
    refund: 'استرداد هذه الدفعة',
    confirmTitle: 'استرداد هذه الدفعة؟',
    confirm: /^نعم، استرد/,
    done: 'استُرد مبلغ الدفعة وصدر إشعارها الدائن.',
    refunded: 'مستردة',
    creditNote: 'الإشعار الدائن',
    download: 'تنزيل PDF',
    teacherRefunded: 'مسترد',
    teacherCreditNote: /^الإشعار الدائن/,
    invoice: 'الفاتورة',
  },
  en: {
    search: 'Email or serial',
    searchButton: 'Search',
    open: 'Open',
    refund: 'Refund this payment',
    confirmTitle: 'Refund this payment?',
    confirm: /^Yes, refund/,
    done: 'The payment was refunded and its credit note issued.',
    refunded: 'Refunded',
    creditNote: 'Credit note',
    download: 'Download PDF',
    teacherRefunded: 'Refunded',
    teacherCreditNote: /^Credit note/,
    invoice: 'Invoice',
  },
} as const

/** An operator with two-step verification on, signed in in a browser context of their own. */
async function operatorContext(browser: Browser, lang: 'ar' | 'en'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': `10.250.${lang === 'ar' ? 1 : 2}.7` } })
  const page = await context.newPage()
  const { email } = await signedInTeacher(page, lang, `operator-${lang}`, { outbox: server.outbox })
  await server.grantOperator(email)
  // The area asks for two-step verification first.
  await page.goto(`/${lang}/admin`)
  await expect(page.locator('.admin-gate')).toBeVisible()
  await turnOnTwoFactor(page, lang)
  return { context, page }
}

/** The PDF's text as pdftotext reads it, bidi controls removed; its first page as a PNG to look at. */
function readPdf(file: string, png: string): string {
  execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', file, png])
  return execFileSync('/usr/bin/pdftotext', ['-layout', file, '-'])
    .toString('utf8')
    .replace(/[\u200E\u200F\u202A-\u202E]/g, '')
}

/** Each page at a phone's and a desktop's width, light and dark. */
async function screenshots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const)
    for (const width of [390, 1280]) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await page.screenshot({ path: `${shots}/${name}-${width}-${scheme}.png`, fullPage: true })
    }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 900 })
}

for (const lang of ['ar', 'en'] as const) {
  test(`${lang}: an operator refunds a subscribed teacher's payment; the credit note reaches both`, async ({ page, browser }, testInfo) => {
    test.setTimeout(180_000)
    const w = words[lang]
    const { email: teacherEmail } = await subscribedTeacher(page, lang, `refunded-${lang}`, { outbox: server.outbox })
    const operator = await operatorContext(browser, lang)
    const op = operator.page

    // Find the payment by the teacher's email.
    await op.goto(`/${lang}/admin/payments`)
    await expect(op.locator('html')).toHaveAttribute('dir', lang === 'ar' ? 'rtl' : 'ltr')
    await op.getByLabel(w.search).fill(teacherEmail)
    await op.getByRole('button', { name: w.searchButton }).click()
    await expect(op).toHaveURL(/\?q=/)
    const row = op.locator('tbody tr')
    await expect(row).toHaveCount(1)
    await expect(row).toContainText(teacherEmail)
    const invoiceSerial = ((await row.locator('.admin-serial').first().textContent()) ?? '').trim()
    expect(invoiceSerial).toMatch(/^INV-\d{6}$/)
    await screenshots(op, `${lang}-payments`)
    await row.getByRole('link', { name: new RegExp(`^${w.open}`) }).click()

    // The payment, then the confirmation step (a page of its own: it works without JavaScript).
    await expect(op.getByRole('heading', { level: 1 })).toBeVisible()
    await op.getByRole('link', { name: w.refund }).click()
    await expect(op.getByRole('heading', { name: w.confirmTitle })).toBeVisible()
    await expect(op.locator('main')).toContainText(invoiceSerial)
    expect((await axe(op).analyze()).violations.map((v) => v.id)).toEqual([])
    await screenshots(op, `${lang}-refund-confirm`)
    await op.getByRole('button', { name: w.confirm }).click()
    await expect(op.getByText(w.done).first()).toBeVisible()
    await expect(op.locator('.status-badge').first()).toHaveText(w.refunded)
    const creditNoteCard = op.locator('section', { has: op.getByRole('heading', { name: new RegExp(w.creditNote) }) })
    const creditNoteSerial = ((await creditNoteCard.locator('bdi').textContent()) ?? '').trim()
    expect(creditNoteSerial).toMatch(/^CN-\d{6}$/)
    expect((await axe(op).analyze()).violations.map((v) => v.id)).toEqual([])
    await screenshots(op, `${lang}-payment`)

    // The operator's credit note PDF: its serial, the invoice it reverses, the amounts negated.
    const fromOperator = await downloadFrom(
      op,
      testInfo,
      () => creditNoteCard.getByRole('link', { name: w.download }).click(),
      `${creditNoteSerial}-operator.pdf`,
    )
    const text = readPdf(fromOperator, `${shots}/${lang}-credit-note`)
    expect(text).toContain(creditNoteSerial)
    expect(text).toContain(invoiceSerial)
    expect(text).toContain('Credit Note')
    expect(text).toContain('إشعار دائن')
    expect(text).toContain('SAR -29.00')
    expect(text).toContain('SAR -4.35')
    expect(text).toContain('SAR -33.35')
    expect(text.match(/-33\.35/g)).toHaveLength(2)

    // A second refund is refused: the payment's page no longer offers it, and the step sends back.
    await expect(op.getByRole('link', { name: w.refund })).toHaveCount(0)

    // The teacher sees the refund and downloads the same credit note.
    await page.goto(`/${lang}/subscriptions`)
    const subscription = page.locator('.subscription').first()
    await expect(subscription.locator('.status-badge')).toHaveText(w.teacherRefunded)
    const link = subscription.getByRole('link', { name: w.teacherCreditNote })
    await expect(link).toContainText(creditNoteSerial)
    await screenshots(page, `${lang}-teacher-subscriptions`)
    const fromTeacher = await downloadFrom(page, testInfo, () => link.click(), `${creditNoteSerial}-teacher.pdf`)
    const teacherText = readPdf(fromTeacher, `${shots}/${lang}-credit-note-teacher`)
    expect(teacherText).toContain(creditNoteSerial)
    expect(teacherText).toContain(invoiceSerial)
    // Her invoice is still there, as it was, with the credit note that reverses it under it.
    await subscription.getByRole('link', { name: w.invoice, exact: true }).click()
    await expect(page.locator('main')).toContainText(invoiceSerial)
    await expect(page.locator('.credit-note-notice')).toContainText(creditNoteSerial)
    expect((await axe(page).analyze()).violations.map((v) => v.id)).toEqual([])
    await screenshots(page, `${lang}-teacher-invoice`)

    // The rest of the area's money pages, to look at: one more teacher pays, so the revenue has a column.
    const payer = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': `10.250.${lang === 'ar' ? 3 : 4}.9` } })
    await subscribedTeacher(await payer.newPage(), lang, `paying-${lang}`, { outbox: server.outbox })
    await payer.close()
    for (const [path, name] of [
      ['admin', 'dashboard'],
      ['admin/packages', 'packages'],
      ['admin/packages/new', 'package-form'],
    ] as const) {
      await op.goto(`/${lang}/${path}`)
      await expect(op.getByRole('heading', { level: 1 })).toBeVisible()
      expect(
        (await axe(op).analyze()).violations.map((v) => v.id),
        path,
      ).toEqual([])
      await screenshots(op, `${lang}-${name}`)
    }
    await operator.context.close()
  })
}
