import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import jsQR from 'jsqr'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { embeddedFonts } from '#app/platform/pdf.server.ts'
import { qrSvg, renderCreditNotePdf, renderInvoicePdf, type InvoiceDocument } from './invoice-pdf.server.ts'
import { halalasToDecimal, readZatcaQr, zatcaQr } from './zatca-qr.ts'

const seller = {
  nameAr: 'شركة حلّل للتقنية التعليمية',
  nameEn: 'Hallil Educational Technology Co.',
  addressAr: 'طريق الملك فهد، حي العليا، الرياض 12214',
  addressEn: 'King Fahd Road, Al Olaya, Riyadh 12214',
  vatNumber: '310122393500003',
}

function invoice(overrides: Partial<InvoiceDocument> = {}): InvoiceDocument {
  const base = {
    serial: 'INV-000042',
    // 17:05 in Riyadh; 12 Jumada II 1448 in the Umm al-Qura calendar.
    issuedAt: new Date('2026-11-22T14:05:09Z'),
    seller,
    customerName: 'عبدالله بن محمد الشهري',
    packageNameAr: 'الباقة الفصلية',
    packageNameEn: 'Term package',
    months: 3,
    price: 24_900,
    vatRateBp: 1500,
    vat: 3735,
    total: 28_635,
    paymentMethod: 'creditcard' as const,
    ...overrides,
  }
  const qr = zatcaQr({
    sellerName: base.seller.nameAr,
    vatNumber: base.seller.vatNumber,
    timestamp: base.issuedAt.toISOString(),
    total: halalasToDecimal(base.total),
    vat: halalasToDecimal(base.vat),
  })
  return { qr, ...base }
}

const pdftotext = (pdf: Uint8Array) =>
  execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: pdf })
    .toString('utf8')
    .replace(/[\u202A-\u202E]/g, '')

/** Rasterises page 1 as a scanner would see it and reads the QR code on it. */
async function scanQr(pdf: Uint8Array): Promise<string | undefined> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hallil-invoice-'))
  try {
    writeFileSync(path.join(dir, 'invoice.pdf'), pdf)
    execFileSync('/usr/bin/pdftoppm', [
      '-r',
      '150',
      '-png',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      path.join(dir, 'invoice.pdf'),
      path.join(dir, 'page'),
    ])
    return await decodeQr(readFileSync(path.join(dir, 'page.png')))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function decodeQr(image: Buffer): Promise<string | undefined> {
  const { data, info } = await sharp(image).flatten({ background: '#fff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height)?.data
}

describe('renderInvoicePdf', () => {
  it('prints every field of the simplified tax invoice in both languages', () => {
    const text = pdftotext(renderInvoicePdf(invoice()))
    // The title in logical order: a font whose ligatures extract backwards would give `رضيبية`.
    expect(text).toContain('فاتورة ضريبية مبسطة')
    expect(text).toContain('Simplified Tax Invoice')
    expect(text).toContain('INV-000042')
    expect(text).toMatch(/VAT registration number: 310122393500003/)
    expect(text).toContain('الرقم الضريبي')
    expect(text).toContain(seller.nameEn)
    expect(text).toContain('شركة حلّل للتقنية التعليمية'.replace('لّ', 'ّل')) // poppler puts the shadda before its letter
    expect(text).toContain('King Fahd Road, Al Olaya, Riyadh 12214')
    expect(text).toContain('طريق الملك فهد')
    expect(text).toContain('عبدالله بن محمد الشهري')
    expect(text).toContain('Term package')
    expect(text).toContain('الباقة الفصلية')
    expect(text).toContain('3 months')
    expect(text).toContain('أشهر')
    // Issue date and time in Riyadh, with the Umm al-Qura date.
    expect(text).toContain('22 November 2026, 17:05')
    expect(text).toContain('12 Jumada II 1448 AH')
    expect(text).toContain('Riyadh time')
    expect(text).toContain('جمادى الآخرة')
    expect(text).toContain('بتوقيت الرياض')
    // Price, VAT rate and value, total: English and Arabic formats, Latin digits.
    expect(text).toContain('SAR 249.00')
    expect(text).toContain('15%')
    expect(text).toContain('SAR 37.35')
    expect(text).toContain('SAR 286.35')
    expect(text.match(/286\.35/g)).toHaveLength(2)
    expect(text).toContain('ر.س')
    expect(text).toContain('السعر قبل الضريبة')
    expect(text).toContain('الإجمالي المدفوع')
    expect(text).toContain('Credit card (Visa / Mastercard)')
    expect(text).toContain('بطاقة ائتمانية')
    expect(text).not.toMatch(/[\u0660-\u0669]/) // no Arabic-Indic digits
  })

  it('names each payment method in both languages', () => {
    expect(pdftotext(renderInvoicePdf(invoice({ paymentMethod: 'mada' })))).toMatch(/mada[\s\S]*مدى/)
    expect(pdftotext(renderInvoicePdf(invoice({ paymentMethod: 'applepay' })))).toContain('Apple Pay')
    expect(pdftotext(renderInvoicePdf(invoice({ paymentMethod: 'stcpay' })))).toContain('STC Pay')
  })

  it('prints the customer’s full name on each side in its language, the username where one is missing', () => {
    const both = pdftotext(
      renderInvoicePdf(invoice({ customerName: 'noura_t', customerNameAr: 'نورة بنت سعد العتيبي', customerNameEn: 'Noura Saad Alotaibi' })),
    )
    expect(both).toContain('Noura Saad Alotaibi')
    expect(both).toContain('العتيبي')
    expect(both).not.toContain('noura_t')
    const arabicOnly = pdftotext(
      renderInvoicePdf(invoice({ customerName: 'noura_t', customerNameAr: 'نورة بنت سعد العتيبي', customerNameEn: null })),
    )
    expect(arabicOnly).toContain('noura_t')
    expect(arabicOnly).toContain('العتيبي')
  })

  it('prints a customer name with typst syntax in it literally', () => {
    const customerName = String.raw`#"evil" [x] *b* _i_ $m$ \\ @ref <l>`
    const text = pdftotext(renderInvoicePdf(invoice({ customerName })))
    expect(text).toContain(customerName)
  })

  it('embeds its fonts, the shipped ones only', () => {
    const pdf = renderInvoicePdf(invoice())
    const fonts = execFileSync('/usr/bin/pdffonts', ['-'], { input: pdf }).toString('utf8').split('\n').slice(2).filter(Boolean)
    expect(fonts.length).toBeGreaterThanOrEqual(3)
    for (const line of fonts) expect(line).toMatch(/^[A-Z]{6}\+(Amiri|IBMPlexSansArabic)-\w+\s.*\byes\s+yes\s+yes\s/)
    expect(embeddedFonts(pdf)).toEqual(expect.arrayContaining(['Amiri-Regular', 'Amiri-Bold', 'IBMPlexSansArabic-Regular']))
  })

  it('draws the ZATCA QR code, which scans back to the TLV', async () => {
    const document = invoice()
    const scanned = await scanQr(renderInvoicePdf(document))
    expect(scanned).toBe(document.qr)
    expect(readZatcaQr(scanned ?? '')).toEqual([seller.nameAr, seller.vatNumber, '2026-11-22T14:05:09.000Z', '286.35', '37.35'])
  })

  it('draws the docs/billing.md test vector as a QR code that scans back', async () => {
    const vector = 'AQxCb2JzIFJlY29yZHMCDzMxMDEyMjM5MzUwMDAwMwMUMjAyMi0wNC0yNVQxNTozMDowMFoEBzEwMDAuMDAFBjE1MC4wMA=='
    const png = await sharp(Buffer.from(qrSvg(vector)), { density: 300 })
      .png()
      .toBuffer()
    expect(await decodeQr(png)).toBe(vector)
  })

  it('prints a credit note: its title and serial, the original invoice, the amounts negated, the QR', async () => {
    const original = invoice()
    const issuedAt = new Date('2026-11-25T09:00:00Z')
    const qr = zatcaQr({
      sellerName: seller.nameAr,
      vatNumber: seller.vatNumber,
      timestamp: '2026-11-25T09:00:00Z',
      total: '-286.35',
      vat: '-37.35',
    })
    const pdf = renderCreditNotePdf({
      ...original,
      serial: 'CN-000007',
      invoiceSerial: 'INV-000042',
      issuedAt,
      price: -24_900,
      vat: -3735,
      total: -28_635,
      qr,
    })
    const text = pdftotext(pdf)
    expect(text).toContain('Credit Note')
    expect(text).toContain('إشعار دائن')
    expect(text).toContain('CN-000007')
    expect(text).toContain('Original invoice')
    expect(text).toContain('الفاتورة الأصلية')
    expect(text).toContain('INV-000042')
    expect(text).not.toContain('Simplified Tax Invoice')
    // 249.00 − 37.35 VAT − 286.35 in all, negative on both sides (12:00 in Riyadh, 25 November).
    expect(text).toContain('SAR -249.00')
    expect(text).toContain('SAR -37.35')
    expect(text).toContain('SAR -286.35')
    expect(text.match(/-286\.35/g)).toHaveLength(2)
    expect(text).toContain('Total refunded')
    expect(text).toContain('إجمالي المبلغ المسترد')
    expect(text).toContain('25 November 2026, 12:00')
    expect(await scanQr(pdf)).toBe(qr)
  })

  it('refuses a credit note with a positive amount, and an invoice with a negative one', () => {
    expect(() => renderCreditNotePdf({ ...invoice(), invoiceSerial: 'INV-000001' })).toThrow(RangeError)
    expect(() => renderInvoicePdf(invoice({ price: -24_900 }))).toThrow(RangeError)
  })

  it('refuses amounts that are not whole halalas', () => {
    expect(() => renderInvoicePdf(invoice({ total: 286.35 }))).toThrow(RangeError)
  })

  it('renders in a few milliseconds with a warm compiler', () => {
    renderInvoicePdf(invoice())
    const times: number[] = []
    for (let i = 0; i < 20; i++) {
      // A different invoice each time, so typst's memo cache cannot answer from the last one.
      const document = invoice({ serial: `INV-${String(1000 + i).padStart(6, '0')}`, customerName: `Customer ${i}` })
      const start = performance.now()
      const pdf = renderInvoicePdf(document)
      times.push(performance.now() - start)
      expect(pdf.byteLength).toBeGreaterThan(10_000)
    }
    times.sort((a, b) => a - b)
    // Measured, not asserted: machines differ.
    console.info(
      `invoice pdf: warm median ${times[10]?.toFixed(1)} ms over 20 renders (min ${times[0]?.toFixed(1)}, max ${times[19]?.toFixed(1)})`,
    )
  })
})
