import type { Locator } from '@playwright/test'
import { expect, test, type Page } from './fixtures.ts'
import { execFileSync } from 'node:child_process'
import { signedInTeacher } from './teacher.ts'

const words = {
  ar: {
    subscribe: 'اشترك',
    pay: 'المتابعة إلى الدفع',
    cardNumber: 'رقم البطاقة',
    nameOnCard: 'الاسم على البطاقة',
    expiry: 'تاريخ الانتهاء (شهر/سنة)',
    cvc: 'رمز التحقق (CVC)',
    payButton: 'ادفع',
    confirm: 'تأكيد',
    success: 'تم الدفع بنجاح',
    failed: 'فشلت عملية الدفع',
    failedLead: 'فشل الاشتراك. يرجى المحاولة مرة أخرى.',
    viewInvoice: 'عرض الفاتورة الضريبية',
    invoiceTitle: 'فاتورة ضريبية مبسطة',
    current: 'حالي',
    cannot: 'لا يمكنك الاشتراك الآن',
    already: 'لديك اشتراك فعّال لم ينتهِ بعد. لا يمكنك الاشتراك قبل انتهاء الباقة الحالية.',
    activeUntil: /فعّال حتى/,
    notifPaid: /تم استلام الدفعة/,
  },
  en: {
    subscribe: 'Subscribe',
    pay: 'Continue to payment',
    cardNumber: 'Card number',
    nameOnCard: 'Name on card',
    expiry: 'Expiry (MM/YY)',
    cvc: 'CVC',
    payButton: 'Pay',
    confirm: 'Confirm',
    success: 'Payment was successful',
    failed: 'Payment failed',
    failedLead: 'Subscription failed. Please try again.',
    viewInvoice: 'View the tax invoice',
    invoiceTitle: 'Simplified Tax Invoice',
    current: 'Current',
    cannot: 'You cannot subscribe now',
    already: 'You already have an active subscription that has not yet expired. You cannot subscribe before the current package ends.',
    activeUntil: /Active until/,
    notifPaid: /Payment received/,
  },
} as const

async function payWith(page: Page, lang: 'ar' | 'en', card: string) {
  const w = words[lang]
  await page.goto(`/${lang}/packages`)
  await page
    .locator('.package-card.is-best-seller')
    .getByRole('link', { name: new RegExp(`^(${w.subscribe}|${lang === 'ar' ? 'تجديد الاشتراك' : 'Renew subscription'})$`) })
    .click()
  await expect(page).toHaveURL(new RegExp(`/${lang}/checkout/\\d+`))
  await page.getByRole('button', { name: w.pay }).click()
  await expect(page).toHaveURL(/sandbox-pay\?id=sbx_/)
  // On a phone too, where the sentence wraps: a card number is never broken across lines.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 })
    for (const testCard of ['4111 1111 1111 1111', '4000 0000 0000 0002'])
      expect({ width, testCard, ltr: await readsLeftToRight(page.locator('.notice-info'), testCard) }).toEqual({
        width,
        testCard,
        ltr: true,
      })
  }
  await page.setViewportSize({ width: 1280, height: 720 })
  await page.getByLabel(w.cardNumber).fill(card)
  await page.getByLabel(w.nameOnCard).fill('NOURA ALQAHTANI')
  await page.getByLabel(w.expiry).fill('12/30')
  await page.getByLabel(w.cvc).fill('123')
  await page.getByRole('button', { name: w.payButton, exact: true }).click()
  await page.getByRole('button', { name: w.confirm }).click()
  await expect(page).toHaveURL(new RegExp(`/${lang}/payments/result/`))
}

/**
 * Whether `text` is drawn left to right inside the element: its first character left of its last.
 * A card number or a serial in an Arabic sentence that is not isolated is drawn right to left
 * group by group ("1111 1111 1111 4111").
 */
function readsLeftToRight(element: Locator, text: string) {
  return element.evaluate((root, wanted) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const at = node.data.indexOf(wanted)
      if (at < 0) continue
      const box = (from: number) => {
        const range = document.createRange()
        range.setStart(node, from)
        range.setEnd(node, from + 1)
        return range.getBoundingClientRect()
      }
      const [first, last] = [box(at), box(at + wanted.length - 1)]
      // Broken across lines, it reads neither way.
      return Math.abs(first.top - last.top) < first.height / 2 && first.left < last.left
    }
    throw new Error(`${wanted} is not in one piece of text`)
  }, text)
}

/** On how many lines the badge's two dates are drawn (the Gregorian date ends its first line). */
function dateLines(page: Page) {
  return page.locator('.package-active').evaluate((badge) => {
    const lines = (range: Range) => new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size
    const text = badge.firstChild as Text
    const gregorian = document.createRange()
    gregorian.setStart(text, text.data.lastIndexOf(' ') + 1)
    gregorian.setEnd(text, text.data.length)
    const hijri = document.createRange()
    hijri.selectNodeContents(badge.querySelector('.package-active-hijri') as Element)
    return { gregorian: lines(gregorian), hijri: lines(hijri) }
  })
}

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]
  test(`${lang}: pay with the sandbox's succeeding card, get the subscription and the invoice; a second subscription is refused`, async ({
    page,
  }) => {
    // The whole money path, then the packages page and the sandbox notice at two widths each.
    test.setTimeout(60_000)
    await signedInTeacher(page, lang, 'pay')
    await payWith(page, lang, '4111 1111 1111 1111')
    await expect(page.getByRole('heading', { name: w.success })).toBeVisible()
    await page.getByRole('link', { name: w.viewInvoice }).click()
    await expect(page.getByRole('heading', { name: w.invoiceTitle })).toBeVisible()
    await expect(page.getByText(/INV-\d{6}/).first()).toBeVisible()
    await expect(page.locator('.invoice-card').getByText('300000000000003')).toBeVisible()
    const serial =
      (
        await page
          .getByText(/INV-\d{6}/)
          .first()
          .textContent()
      )?.match(/INV-\d{6}/)?.[0] ?? ''
    expect(await readsLeftToRight(page.locator('.page-hero .lead'), serial)).toBe(true)
    expect(await readsLeftToRight(page.locator('.invoice-lines'), serial)).toBe(true)
    const total = (await page.locator('.invoice-lines div').nth(11).locator('dd').textContent())?.match(/[\d,]+\.\d{2}/)?.[0] ?? ''
    // Download PDF: its text holds the serial, the seller's VAT number and the total.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('a[download]').click()])
    const file = test.info().outputPath(`${serial}.pdf`)
    await download.saveAs(file)
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    expect(text).toContain(serial)
    expect(text).toContain('300000000000003')
    expect(text).toContain(total)
    await page.goto(`/${lang}/subscriptions`)
    await expect(page.locator('.status-current')).toHaveText(w.current)
    await page.goto(`/${lang}/packages`)
    await expect(page.getByText(w.activeUntil).first()).toBeVisible()
    await expect(page.locator('.package-card a.package-subscribe')).toHaveCount(0)
    // Only the package bought says until when; the rule for the others is said once, not per card.
    await expect(page.locator('.package-active')).toHaveCount(1)
    await expect(page.locator('.package-card.is-best-seller .package-active')).toHaveCount(1)
    await expect(page.locator('.package-rule')).toHaveCount(1)
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 })
      expect({ width, lines: await dateLines(page) }).toEqual({ width, lines: { gregorian: 1, hijri: 1 } })
    }
    // Straight to the checkout anyway: refused with the product's message.
    await page.goto(`/${lang}/checkout/1`)
    await expect(page.getByText(w.cannot)).toBeVisible()
    await expect(page.getByText(w.already)).toBeVisible()
    await page.goto(`/${lang}/notifications`)
    await expect(page.getByRole('heading', { name: w.notifPaid })).toBeVisible()
    expect(await readsLeftToRight(page.locator('.notification-list'), serial)).toBe(true)
  })

  test(`${lang}: the failing card ends in "Payment failed" with a way to try again`, async ({ page }) => {
    await signedInTeacher(page, lang, 'pay')
    await payWith(page, lang, '4000 0000 0000 0002')
    await expect(page.getByRole('heading', { name: w.failed })).toBeVisible()
    await expect(page.getByText(w.failedLead)).toBeVisible()
    await page.goto(`/${lang}/subscriptions`)
    await expect(page.locator('.status-current')).toHaveCount(0)
  })
}

test('a guest choosing a package is sent to log in and back to the checkout', async ({ page }) => {
  await page.goto('/en/packages')
  await page.locator('.package-card.is-best-seller').getByRole('link', { name: 'Subscribe' }).click()
  await expect(page).toHaveURL(/\/en\/login\?redirectTo=%2Fen%2Fcheckout%2F\d+/)
})
