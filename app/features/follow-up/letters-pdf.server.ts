import { dirOf, hijriLocale, intlLocale, type Lang } from '#app/i18n/config.ts'
import { formatDate, formatNumber } from '#app/i18n/format.ts'
import { createExportWords } from '#app/features/analyses/index.server.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { lookup, type Vars } from '#app/i18n/translate.ts'
import { DomainError } from '#app/lib/errors.ts'
import type { SchoolStudents } from '#app/lib/constants.ts'
import { PdfRenderLimitError, renderOffThread } from '#app/platform/pdf-pool.server.ts'
import type { LadderDocument } from './ladder.ts'
import type { StepStudent } from './step-documents.ts'

// The step documents as one A4 PDF, a student a page (docs/follow-up-letters.md): the ministry's
// letterhead with the school's details and logo, the document's title and standard text, the
// student, the days of unexcused absence in both calendars, the signatures and the box for a
// guardian who declines to sign. Every word reaches typst as one JSON input (`d`), never as markup
// (docs/decisions/004); it renders in the pool of render processes, as the reports do (014).

/** The school as the letters print it; a missing detail leaves a line to write it on. */
export interface LetterSchool {
  readonly schoolName: string | null
  readonly educationOffice: string | null
  readonly principalName: string | null
  readonly counsellorName: string | null
  /** A girls' school's letters speak of a daughter and of the counsellor and principal as women. */
  readonly students: SchoolStudents
}

/** Where a school's wording is: the documents, and the few labels that name the student or staff. */
export function letterWording(students: SchoolStudents) {
  const girls = students === 'girls'
  const gendered = new Set(['student', 'guardian', 'counsellor', 'principal', 'studentOf'])
  return {
    documents: girls ? 'letters.documentsGirls' : 'letters.documents',
    label: (key: string) => (girls && gendered.has(key) ? `letters.letterGirls.${key}` : `letters.letter.${key}`),
    listHeaders: girls ? 'letters.listGirls.headers' : 'letters.list.headers',
  }
}

export interface StepLettersPdfOptions {
  readonly lang: Lang
  readonly document: LadderDocument
  readonly students: readonly StepStudent[]
  readonly school: LetterSchool
  /** The logo's bytes (WebP, as stored), printed in the middle of the letterhead. */
  readonly logo: Uint8Array | null
  /** The day printed at the head of each letter (today by default). */
  readonly issuedOn?: Date
}

/** Dates listed on a letter; more are counted in a line under the table, so a letter stays on one page. */
export const letterDatesShown = 20

const dayFormats = new Map<string, Intl.DateTimeFormat>()
const dayFormat = (locale: string, options: Intl.DateTimeFormatOptions) => {
  const key = `${locale}:${JSON.stringify(options)}`
  let format = dayFormats.get(key)
  if (!format) dayFormats.set(key, (format = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' })))
  return format
}

/** A school day (`YYYY-MM-DD`) as a letter prints it: the weekday, the Umm al-Qura date and the Gregorian date, in words. */
export function letterDay(lang: Lang, isoDay: string): { weekday: string; hijri: string; gregorian: string } {
  const day = new Date(`${isoDay}T12:00:00Z`)
  const long = { day: 'numeric', month: 'long', year: 'numeric' } as const
  return {
    weekday: dayFormat(intlLocale[lang], { weekday: 'long' }).format(day),
    hijri: dayFormat(hijriLocale[lang], long).format(day),
    gregorian: dayFormat(intlLocale[lang], long).format(day),
  }
}

/** The JSON the template reads: every word of every letter, formatted for the language. */
export function lettersData({ lang, document, students, school, logo, issuedOn = new Date() }: StepLettersPdfOptions) {
  const { t } = createExportWords(lang, ['letters'])
  const messages = getMessages(lang, ['letters'])
  /** A list in the locale file (paragraphs, headers), each entry translated with `vars`. */
  const list = (key: string, vars?: Vars): string[] => {
    const entries = lookup(messages, key)
    if (!Array.isArray(entries)) throw new Error(`Missing ${lang} list ${key}`)
    return entries.map((_, i) => t(`${key}.${i}`, vars))
  }
  const issued = formatDate(lang, issuedOn)
  const wording = letterWording(school.students)
  const blank = '....................'
  const integer = (value: number) => formatNumber(lang, value)
  const body = (student: StepStudent) => {
    const vars = {
      student: student.name,
      grade: student.grade,
      classroom: student.classroom,
      school: school.schoolName ?? blank,
      counsellor: school.counsellorName ?? blank,
    }
    return {
      salutation: t(`${wording.documents}.${document}.salutation`, vars),
      paragraphs: list(`${wording.documents}.${document}.body`, vars),
    }
  }
  return {
    lang,
    dir: dirOf(lang),
    title: t(`${wording.documents}.${document}.title`),
    hasLogo: logo !== null,
    header: {
      start: [
        t('letters.letter.kingdom'),
        t('letters.letter.ministry'),
        school.educationOffice ?? t('letters.letter.officeBlank'),
        school.schoolName ?? t('letters.letter.schoolBlank'),
      ],
      end: [
        t('letters.letter.date', { date: issued.hijri }),
        t('letters.letter.gregorian', { date: issued.gregorian }),
        t('letters.letter.number'),
        t('letters.letter.attachments'),
      ],
    },
    words: {
      datesTitle: t('letters.letter.datesTitle'),
      datesHeaders: list('letters.letter.datesHeaders'),
      signatures: t('letters.letter.signatures'),
      name: t('letters.letter.name'),
      signature: t('letters.letter.signature'),
      signedOn: t('letters.letter.signedOn'),
      declined: t('letters.letter.declined'),
      witness: t('letters.letter.witness'),
      madeWith: t('letters.letter.madeWith'),
    },
    signers: [
      { role: t(wording.label('guardian')), name: null },
      { role: t(wording.label('counsellor')), name: school.counsellorName },
      { role: t(wording.label('principal')), name: school.principalName },
    ],
    letters: students.map((student, index) => {
      const days = student.unexcusedDays
      const shown = days?.slice(0, letterDatesShown) ?? []
      return {
        ...body(student),
        facts: [
          { label: t(wording.label('student')), value: student.name, wide: true },
          { label: t('letters.letter.studentId'), value: student.studentId ?? '—', wide: false },
          { label: t('letters.letter.unexcused'), value: integer(student.unexcused), wide: false },
          { label: t('letters.letter.grade'), value: student.grade, wide: false },
          { label: t('letters.letter.classroom'), value: student.classroom, wide: false },
        ],
        dates:
          days === null
            ? null
            : shown.map((d, i) => {
                const printed = letterDay(lang, d.date)
                return [integer(i + 1), printed.weekday, printed.hijri, printed.gregorian]
              }),
        more: days && days.length > shown.length ? t('letters.letter.moreDates', { count: days.length - shown.length }) : null,
        noDates: days === null ? t('letters.letter.noDates') : null,
        footer: t(wording.label('studentOf'), { index: integer(index + 1), total: integer(students.length) }),
      }
    }),
  }
}

// The letter. With `text(dir: rtl)` typst lays grids and tables from the right, so the
// letterhead's first column (the ministry's lines) sits on the right in Arabic and on the left
// in English, as each language's official letters place it.
const template = String.raw`
#let d = json(bytes(sys.inputs.letters))
#let is-rtl = d.dir == "rtl"
#let ink = rgb("#1b2725")
#let muted = rgb("#4d5b58")
#let rule = rgb("#9aa7a4")
#let soft = rgb("#eef3f2")

#set text(size: if is-rtl { 12pt } else { 10.5pt }, fill: ink, lang: d.lang, dir: if is-rtl { rtl } else { ltr })
#set par(leading: if is-rtl { 0.75em } else { 0.6em }, spacing: 0.9em, justify: true)
#show: body => if is-rtl {
  show regex("[\u{21}-\u{7E}]+"): set text(size: 0.86em)
  body
} else {
  show regex("[\u{600}-\u{6FF}\u{750}-\u{77F}\u{FB50}-\u{FDFF}\u{FE70}-\u{FEFF}]+"): set text(size: 1.16em)
  body
}
#set page(paper: "a4", margin: (x: 18mm, top: 12mm, bottom: 14mm))

#let letterhead() = {
  set par(justify: false, leading: 0.5em, spacing: 0.5em)
  grid(columns: (1fr, 34mm, 1fr), align: (start + top, center + horizon, end + top),
    {
      set text(weight: "bold", size: 0.92em)
      d.header.start.join(linebreak())
    },
    if d.hasLogo { image("/logo.webp", height: 24mm, fit: "contain") } else { [] },
    {
      set text(size: 0.88em)
      d.header.end.join(linebreak())
    },
  )
  v(2mm)
  line(length: 100%, stroke: 1.2pt + ink)
  v(-2.2mm)
  line(length: 100%, stroke: 0.4pt + ink)
}

#let facts-table(facts) = {
  set par(justify: false)
  let cell(f) = (
    table.cell(fill: soft, text(weight: "bold", size: 0.9em, f.label)),
    table.cell(colspan: if f.wide { 3 } else { 1 }, f.value),
  )
  table(columns: (auto, 1fr, auto, 1fr), inset: (x: 2.5mm, y: 1.8mm), stroke: 0.5pt + rule,
    align: start + horizon,
    ..facts.map(cell).flatten())
}

#let dates-table(rows, more) = {
  set par(justify: false)
  block(sticky: true, above: 4mm, below: 2mm, text(weight: "bold", d.words.datesTitle))
  set text(size: 0.86em)
  // Two tables side by side past ten days, so the list stays short.
  let half = if rows.len() > 10 { calc.ceil(rows.len() / 2) } else { rows.len() }
  let one(part) = table(columns: (auto, auto, 1fr, 1fr), inset: (x: 1.6mm, y: 1.1mm), stroke: 0.4pt + rule,
    align: (x, y) => if x == 0 { center + horizon } else { start + horizon },
    table.header(..d.words.datesHeaders.map(h => table.cell(fill: soft, text(weight: "bold", h)))),
    ..part.flatten())
  if rows.len() > 10 {
    grid(columns: (1fr, 1fr), column-gutter: 4mm, one(rows.slice(0, half)), one(rows.slice(half)))
  } else {
    one(rows)
  }
  if more != none { block(above: 1.5mm, text(fill: muted, more)) }
}

#let signer(s) = {
  set par(justify: false, spacing: 0.6em)
  let dots = box(width: 1fr, repeat[.])
  text(weight: "bold", s.role)
  linebreak()
  grid(columns: (auto, 1fr), column-gutter: 1.5mm, row-gutter: 3.2mm,
    d.words.name + ":", if s.name != none { s.name } else { dots },
    d.words.signature + ":", dots,
    d.words.signedOn + ":", dots)
}

#let declined-box() = block(above: 5mm, width: 100%, inset: 2.5mm, stroke: 0.5pt + rule, radius: 2pt, {
  set par(justify: false)
  grid(columns: (auto, auto, 1fr, auto, 1fr), column-gutter: 2.5mm, align: horizon,
    box(width: 4mm, height: 4mm, stroke: 0.8pt + ink),
    text(weight: "bold", d.words.declined),
    [],
    d.words.witness + ":",
    box(width: 100%, repeat[.]))
})

#for (i, l) in d.letters.enumerate() {
  if i > 0 { pagebreak() }
  letterhead()
  v(4mm)
  align(center, text(size: 1.45em, weight: "bold", d.title))
  v(3mm)
  block(below: 3mm, text(weight: "bold", l.salutation))
  facts-table(l.facts)
  v(2mm)
  for p in l.paragraphs { par(p) }
  if l.dates != none and l.dates.len() > 0 { dates-table(l.dates, l.more) }
  if l.noDates != none { block(above: 3mm, text(fill: muted, l.noDates)) }
  v(1fr)
  block(breakable: false, {
    block(below: 2.5mm, text(weight: "bold", size: 1.05em, d.words.signatures))
    grid(columns: (1fr, 1fr, 1fr), column-gutter: 7mm, ..d.signers.map(signer))
    declined-box()
    v(2mm)
    set text(size: 0.75em, fill: muted)
    grid(columns: (1fr, auto), d.words.madeWith, l.footer)
  })
}
#set document(title: d.title)
`

/** The step's letters as PDF bytes, one page per student (at least one student). */
export async function renderStepLettersPdf(options: StepLettersPdfOptions): Promise<Uint8Array> {
  const data = lettersData(options)
  try {
    const rendered = await renderOffThread(
      template,
      { inputs: { letters: JSON.stringify(data) }, ...(options.logo ? { images: { 'logo.webp': options.logo } } : {}) },
      { pdf: true },
    )
    return rendered.pdf ?? new Uint8Array()
  } catch (error) {
    if (error instanceof PdfRenderLimitError) throw new DomainError(503, 'common.errors.statusText.503', undefined, 30)
    throw error
  }
}
