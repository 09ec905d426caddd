import { hijriLocale, intlLocale, type Lang } from '#app/i18n/config.ts'
import { formatMoney } from '#app/i18n/format.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator, lookup } from '#app/i18n/translate.ts'
import { renderPdf } from '#app/platform/pdf.server.ts'
import type { PaymentMethod } from './gateways/types.ts'
import { qrSvg } from './qr-svg.ts'

export type InvoiceDocument = {
  serial: string
  issuedAt: Date
  seller: { nameAr: string; nameEn: string; addressAr: string; addressEn: string; vatNumber: string }
  /** The username at issue: printed on a side whose full name is missing. */
  customerName: string
  /** The full names at issue, each printed on its language's side. */
  customerNameAr?: string | null
  customerNameEn?: string | null
  packageNameAr: string
  packageNameEn: string
  months: number
  /** Halalas. */
  price: number
  /** Basis points: 1500 = 15%. */
  vatRateBp: number
  /** Halalas. */
  vat: number
  /** Halalas. */
  total: number
  paymentMethod: PaymentMethod
  /** The ZATCA phase-1 QR content (Base64 of the TLV), drawn as a QR code. */
  qr: string
}

/**
 * A credit note prints like the invoice it reverses (docs/billing.md, "Refunds and credit
 * notes"): its own serial and date, the original invoice's serial, and the amounts negated.
 */
export type CreditNoteDocument = Omit<InvoiceDocument, 'serial'> & {
  serial: string
  invoiceSerial: string
}

type Bilingual = { en: string; ar: string }
type Row = { label: Bilingual; en: string[]; ar: string[] } | { label: Bilingual; value: string; dir: 'ltr' | 'rtl' }

// Every word on the invoice comes from the billing locale files (the field labels shared with
// the invoice page, and `invoice.printed.*` for words only the PDF prints).
const printedKeys = ['invoice', 'purchase', 'amounts', 'riyadhTime', 'thanks', 'note'] as const
type Printed = Record<(typeof printedKeys)[number], Bilingual>

function printedWords(): Printed {
  const en = labelsFor('en')
  const ar = labelsFor('ar')
  return Object.fromEntries(
    printedKeys.map((k) => [k, { en: en(`billing.invoice.printed.${k}`), ar: ar(`billing.invoice.printed.${k}`) }]),
  ) as Printed
}

/** The credit note's own words where they differ from the invoice's. */
function creditNoteWords(): Printed {
  return {
    ...printedWords(),
    invoice: both('billing.creditNote.printed.creditNote'),
    note: both('billing.creditNote.printed.note'),
  }
}

const timeZone = 'Asia/Riyadh'

type Label = (key: string, vars?: Record<string, string | number>) => string
const labels: Partial<Record<Lang, Label>> = {}

function labelsFor(lang: Lang): Label {
  const cached = labels[lang]
  if (cached) return cached
  const messages = getMessages(lang, ['billing', 'packages'])
  const { t } = createTranslator(lang, messages)
  // A missing key would print its name on a tax invoice: fail instead.
  const label: Label = (key, vars) => {
    if (lookup(messages, key) === undefined) throw new Error(`Missing ${lang} message ${key}`)
    return t(key, vars)
  }
  labels[lang] = label
  return label
}

function both(key: string, vars?: Record<string, string | number>): Bilingual {
  return { en: labelsFor('en')(key, vars), ar: labelsFor('ar')(key, vars) }
}

/** The direction of the first strong letter, as `dir="auto"` decides it in a page. */
function directionOf(text: string): 'ltr' | 'rtl' {
  for (const char of text) {
    if (/[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u.test(char)) return 'rtl'
    if (/\p{L}/u.test(char)) return 'ltr'
  }
  return 'ltr'
}

const dateFormats = (lang: Lang) => {
  const day = { day: 'numeric', month: 'long', year: 'numeric', timeZone } as const
  return {
    gregorian: new Intl.DateTimeFormat(intlLocale[lang], day),
    hijri: new Intl.DateTimeFormat(hijriLocale[lang], day),
    time: new Intl.DateTimeFormat(intlLocale[lang], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }),
  }
}
// Created once: building an Intl formatter costs more than using it.
const formats = { ar: dateFormats('ar'), en: dateFormats('en') }

/** Gregorian date and time, the Umm al-Qura date, and the time zone, each on its own line. */
function issueDate(lang: Lang, date: Date): string[] {
  const { gregorian, hijri, time } = formats[lang]
  const [day, clock] = [gregorian.format(date), time.format(date)]
  return [lang === 'ar' ? `${day}، ${clock}` : `${day}, ${clock}`, hijri.format(date), printedWords().riyadhTime[lang]]
}

function percent(basisPoints: number): string {
  return `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(basisPoints / 100)}%`
}

// The QR code (ZATCA TLV) is drawn from the same SVG the invoice page shows.
export { qrSvg }

/** The customer: each side her full name in its language, else the username (then one value for both). */
function customerRow(invoice: InvoiceDocument): Row {
  const label = both('billing.invoice.customer')
  const ar = invoice.customerNameAr || invoice.customerName
  const en = invoice.customerNameEn || invoice.customerName
  return ar === en ? { label, value: ar, dir: directionOf(ar) } : { label, en: [en], ar: [ar] }
}

function invoiceData(invoice: InvoiceDocument, creditNote?: { invoiceSerial: string }) {
  // An invoice's amounts are zero or more, a credit note's zero or less (the invoice's, negated).
  const sign = creditNote ? -1 : 1
  for (const [name, value] of Object.entries({ price: invoice.price, vat: invoice.vat, total: invoice.total })) {
    if (!Number.isSafeInteger(value) || value * sign < 0)
      throw new RangeError(`${name} must be a ${creditNote ? 'non-positive' : 'non-negative'} integer`)
  }
  if (!Number.isSafeInteger(invoice.vatRateBp) || invoice.vatRateBp < 0) throw new RangeError('vatRateBp must be a non-negative integer')
  const printed = creditNote ? creditNoteWords() : printedWords()
  const key = creditNote ? 'billing.creditNote' : 'billing.invoice'
  const money = (halalas: number) => ({ en: [formatMoney('en', halalas)], ar: [formatMoney('ar', halalas)] })
  const sections: { title: Bilingual; rows: Row[] }[] = [
    {
      title: printed.invoice,
      rows: [
        { label: both(`${key}.serial`), value: invoice.serial, dir: 'ltr' },
        ...(creditNote
          ? [{ label: both('billing.creditNote.originalInvoice'), value: creditNote.invoiceSerial, dir: 'ltr' as const }]
          : []),
        { label: both('billing.invoice.issuedAt'), en: issueDate('en', invoice.issuedAt), ar: issueDate('ar', invoice.issuedAt) },
        {
          label: both('billing.invoice.method'),
          en: [labelsFor('en')(`billing.checkout.methods.${invoice.paymentMethod}`)],
          ar: [labelsFor('ar')(`billing.checkout.methods.${invoice.paymentMethod}`)],
        },
      ],
    },
    {
      title: printedWords().purchase,
      rows: [
        customerRow(invoice),
        { label: both('billing.invoice.package'), en: [invoice.packageNameEn], ar: [invoice.packageNameAr] },
        {
          label: both('billing.invoice.duration'),
          en: [labelsFor('en')('packages.duration', { count: invoice.months })],
          ar: [labelsFor('ar')('packages.duration', { count: invoice.months })],
        },
      ],
    },
  ]
  const amounts: Row[] = [
    { label: both('billing.invoice.price'), ...money(invoice.price) },
    { label: both('billing.invoice.vatRate'), value: percent(invoice.vatRateBp), dir: 'ltr' },
    { label: both('billing.invoice.vat'), ...money(invoice.vat) },
  ]
  return {
    title: both(`${key}.title`),
    serial: invoice.serial,
    seller: {
      ...invoice.seller,
      label: both('billing.invoice.seller'),
      vatLabel: both('billing.invoice.vatNumber'),
    },
    printed,
    sections,
    amounts,
    total: { label: both(`${key}.total`), ...money(invoice.total) },
  }
}

// The layout only: every word and figure arrives formatted through sys.inputs, so nothing a
// customer types is ever parsed as typst markup.
const template = `
#let d = json(bytes(sys.inputs.invoice))
#let brand = rgb("#0f5d52")
#let brand-soft = rgb("#eaf3f1")
#let rule = rgb("#d3dfdc")
#let ink = rgb("#1b2725")
#let muted = rgb("#5d6c69")
#let gold = rgb("#e0a526")

#set text(size: 9.5pt, fill: ink, lang: "en")
#set par(leading: 0.55em, spacing: 0.55em)

// English runs are closed with left-to-right marks (invisible, kept in the text layer): on a page
// that is mostly Arabic, text extraction would otherwise read a neutral at a run's edge as Arabic
// and move it (\`)Mastercard\`, a name ending in \`>\` cut in two). Arabic runs need none, and
// right-to-left marks there make poppler reverse the words.
#let lrm = "\\u{200E}"

// Amiri draws smaller than Plex at the same size: Arabic is set a step larger, and the Latin
// letters and digits inside it a step smaller again, to match the English side. Amiri is also
// taller, so its lines need more leading.
#let ar(body, size: 11.5pt, weight: "regular", fill: ink) = {
  set text(lang: "ar", dir: rtl, size: size, weight: weight, fill: fill)
  set par(leading: 0.72em)
  show regex("[\\u{21}-\\u{7E}]+"): set text(size: 0.84em)
  body
}
#let en(body, size: 9.5pt, weight: "regular", fill: ink) = {
  set text(lang: "en", dir: ltr, size: size, weight: weight, fill: fill)
  body + lrm
}
#set page(paper: "a4", margin: (x: 16mm, top: 14mm, bottom: 22mm), footer: {
  line(length: 100%, stroke: 0.8pt + brand)
  v(1mm)
  grid(columns: (1fr, 1fr), align: (left + horizon, right + horizon),
    en(size: 8.5pt, fill: brand)[#d.printed.thanks.en], ar(size: 10pt, fill: brand)[#d.printed.thanks.ar])
})

// One value on several lines (a date: Gregorian, Hijri, time zone), the first one darker.
#let lines(items, lang) = {
  let mark = if lang == "ar" { "" } else { lrm }
  let body = items.enumerate().map(((i, item)) => text(fill: if i == 0 { ink } else { muted }, item + mark)).join(linebreak())
  if lang == "ar" { ar(body) } else { en(body) }
}

#let logo(size) = box(width: size, height: size, {
  let u = size / 32
  place(rect(width: size, height: size, radius: 8 * u, fill: brand))
  place(dx: 7 * u, dy: 17 * u, rect(width: 4 * u, height: 8 * u, radius: 1.5 * u, fill: white))
  place(dx: 14 * u, dy: 11 * u, rect(width: 4 * u, height: 14 * u, radius: 1.5 * u, fill: white))
  place(dx: 21 * u, dy: 7 * u, rect(width: 4 * u, height: 18 * u, radius: 1.5 * u, fill: gold))
})

// Header: the seller in English on the left, in Arabic on the right.
#grid(
  columns: (1fr, auto, 1fr),
  column-gutter: 6mm,
  align: (left + horizon, center + horizon, right + horizon),
  stack(spacing: 1.6mm,
    en(size: 8pt, weight: "bold", fill: muted)[#upper(d.seller.label.en)],
    en(size: 12.5pt, weight: "bold", fill: brand)[#d.seller.nameEn],
    en(fill: muted)[#d.seller.addressEn],
    en[#d.seller.vatLabel.en: #text(weight: "bold")[#d.seller.vatNumber]],
  ),
  logo(16mm),
  stack(spacing: 3.4mm,
    ar(size: 10pt, weight: "bold", fill: muted)[#d.seller.label.ar],
    ar(size: 15pt, weight: "bold", fill: brand)[#d.seller.nameAr],
    ar(fill: muted)[#d.seller.addressAr],
    ar[#d.seller.vatLabel.ar: #text(weight: "bold")[#d.seller.vatNumber]],
  ),
)

#v(5mm)
#block(width: 100%, fill: brand, radius: 4pt, inset: (x: 6mm, y: 4.5mm), grid(
  columns: (1fr, auto, 1fr),
  align: (left + horizon, center + horizon, right + horizon),
  en(size: 15pt, weight: "bold", fill: white)[#d.title.en],
  box(fill: white, radius: 3pt, inset: (x: 3mm, y: 1.6mm), en(size: 10.5pt, weight: "bold", fill: brand)[#d.serial]),
  ar(size: 19pt, weight: "bold", fill: white)[#d.title.ar],
))
#v(4mm)

#let heading-row(title) = table.cell(colspan: 4, fill: brand-soft, inset: (x: 3mm, y: 2mm), grid(
  columns: (1fr, 1fr),
  align: (left + horizon, right + horizon),
  en(weight: "bold", fill: brand)[#title.en],
  ar(size: 12pt, weight: "bold", fill: brand)[#title.ar],
))
#let cells(row) = if "value" in row {
  (
    en(fill: muted)[#row.label.en],
    table.cell(colspan: 2, align: center + horizon, if row.dir == "rtl" { ar(size: 12pt, weight: "bold")[#row.value] } else { en(size: 10.5pt, weight: "bold")[#row.value] }),
    ar(fill: muted)[#row.label.ar],
  )
} else {
  (en(fill: muted)[#row.label.en], lines(row.en, "en"), lines(row.ar, "ar"), ar(fill: muted)[#row.label.ar])
}

#let columns = (37mm, 1.1fr, 1fr, 40mm)
#let aligns = (left + horizon, left + horizon, right + horizon, right + horizon)

#table(
  columns: columns,
  align: aligns,
  inset: (x: 3mm, y: 2.3mm),
  stroke: (x, y) => (bottom: 0.5pt + rule),
  ..d.sections.map(s => (heading-row(s.title), ..s.rows.map(cells).flatten())).flatten(),
)

#v(3mm)
#table(
  columns: columns,
  align: aligns,
  inset: (x: 3mm, y: 2.3mm),
  stroke: (x, y) => (bottom: 0.5pt + rule),
  heading-row(d.printed.amounts),
  ..d.amounts.map(cells).flatten(),
  table.cell(fill: brand, en(size: 11pt, weight: "bold", fill: white)[#d.total.label.en]),
  table.cell(fill: brand, en(size: 13pt, weight: "bold", fill: white)[#d.total.en.at(0)]),
  table.cell(fill: brand, ar(size: 14pt, weight: "bold", fill: white)[#d.total.ar.at(0)]),
  table.cell(fill: brand, ar(size: 13pt, weight: "bold", fill: white)[#d.total.label.ar]),
)

#v(6mm)
#grid(
  columns: (1fr, auto, 1fr),
  column-gutter: 8mm,
  align: (left + horizon, center + horizon, right + horizon),
  en(size: 8.5pt, fill: muted)[#d.printed.note.en],
  box(stroke: 0.5pt + rule, radius: 4pt, inset: 2mm, image("/qr.svg", width: 32mm)),
  ar(size: 10.5pt, fill: muted)[#d.printed.note.ar],
)

// Last, not first: a set rule at the top that changes with every invoice would restyle the whole
// page, and typst could reuse none of the last render's layout (11 ms a render instead of 4).
#set document(title: d.title.en + " " + d.serial + " · " + d.title.ar)
`

/** The simplified tax invoice as an A4 PDF, Arabic and English side by side. */
export function renderInvoicePdf(invoice: InvoiceDocument): Uint8Array {
  return renderPdf(template, {
    inputs: { invoice: JSON.stringify(invoiceData(invoice)) },
    images: { 'qr.svg': new TextEncoder().encode(qrSvg(invoice.qr)) },
  })
}

/** A credit note as an A4 PDF: the invoice's layout, its own title, serial and words, the original invoice named. */
export function renderCreditNotePdf(creditNote: CreditNoteDocument): Uint8Array {
  return renderPdf(template, {
    inputs: { invoice: JSON.stringify(invoiceData(creditNote, { invoiceSerial: creditNote.invoiceSerial })) },
    images: { 'qr.svg': new TextEncoder().encode(qrSvg(creditNote.qr)) },
  })
}
