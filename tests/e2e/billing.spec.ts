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
  await page.locator('.package-card.is-best-seller').getByRole('link', { name: new RegExp(`^(${w.subscribe}|${lang === 'ar' ? 'تجديد الاشتراك' : 'Renew subscription'})$`) }).click()
  await expect(page).toHaveURL(new RegExp(`/${lang}/checkout/\\d+`))
  await page.getByRole('button', { name: w.pay }).click()
  await expect(page).toHaveURL(/sandbox-pay\?id=sbx_/)
  await page.getByLabel(w.cardNumber).fill(card)
  await page.getByLabel(w.nameOnCard).fill('NOURA ALQAHTANI')
  await page.getByLabel(w.expiry).fill('12/30')
  await page.getByLabel(w.cvc).fill('123')
  await page.getByRole('button', { name: w.payButton, exact: true }).click()
  await page.getByRole('button', { name: w.confirm }).click()
  await expect(page).toHaveURL(new RegExp(`/${lang}/payments/result/`))
}

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]
  test(`${lang}: pay with the sandbox's succeeding card, get the subscription and the invoice; a second subscription is refused`, async ({ page }) => {
    await signedInTeacher(page, lang, 'pay')
    await payWith(page, lang, '4111 1111 1111 1111')
    await expect(page.getByRole('heading', { name: w.success })).toBeVisible()
    await page.getByRole('link', { name: w.viewInvoice }).click()
    await expect(page.getByRole('heading', { name: w.invoiceTitle })).toBeVisible()
    await expect(page.getByText(/INV-\d{6}/).first()).toBeVisible()
    await expect(page.locator('.invoice-card').getByText('300000000000003')).toBeVisible()
    const serial = (await page.getByText(/INV-\d{6}/).first().textContent())?.match(/INV-\d{6}/)?.[0] ?? ''
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
    // Straight to the checkout anyway: refused with the product's message.
    await page.goto(`/${lang}/checkout/1`)
    await expect(page.getByText(w.cannot)).toBeVisible()
    await expect(page.getByText(w.already)).toBeVisible()
    await page.goto(`/${lang}/notifications`)
    await expect(page.getByRole('heading', { name: w.notifPaid })).toBeVisible()
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
