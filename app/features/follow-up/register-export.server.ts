import {
  aboutLines,
  createExportWords,
  exportResponse,
  pdfReportBase,
  renderReportPdf,
  summarySheet,
  tableSheet,
  xlsxCells,
} from '#app/features/analyses/index.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import { formatDay } from '#app/i18n/format.ts'
import { writeWorkbook, type XlsxCell } from '#app/platform/xlsx/write.server.ts'
import type { LadderStep } from './ladder.ts'
import { findFollowUpRegister, type FollowUpRegisterOptions } from './register.server.ts'

// The follow-up register as Excel and PDF (docs/follow-up.md): per classroom the counts, the
// students owed a document and the documents issued, in the page's language and direction.

export interface RegisterExportOptions extends FollowUpRegisterOptions {
  readonly lang: Lang
  readonly format: 'xlsx' | 'pdf'
  /** The teacher who prepared it, as the PDF's sign-off prints her. */
  readonly preparedBy?: string | null
}

const tones = { present: '#1f7a5c', unexcused: '#b42318' } as const

export async function followUpRegisterExport({
  db,
  userId,
  schoolYear,
  lang,
  format,
  preparedBy,
}: RegisterExportOptions): Promise<Response> {
  const view = await findFollowUpRegister({ db, userId, schoolYear })
  const words = createExportWords(lang, ['follow-up-register', 'followUp'])
  const { t } = words
  const year = t('follow-up-register.yearValue', { start: String(view.schoolYear), end: String(view.schoolYear + 1) })
  const title = t('follow-up-register.export.title', { year })
  const now = new Date()
  const stepName = (s: Pick<LadderStep, 'name' | 'document'>) => s.name ?? t(`followUp.documents.${s.document}`)
  const day = (iso: string) => {
    const d = formatDay(lang, iso)
    return `${d.gregorian} — ${d.hijri}`
  }
  const classroom = (c: { grade: string; classroom: string }) => `${c.grade} / ${c.classroom}`
  const status = (s: string) => t(`follow-up-register.statuses.${s}`)

  const classroomHeaders = [
    t('follow-up-register.byClassroom.classroom'),
    t('follow-up-register.byClassroom.reached'),
    t('follow-up-register.byClassroom.issued'),
    t('follow-up-register.byClassroom.outstanding'),
  ]
  const outstandingHeaders = [
    t('follow-up-register.issued.student'),
    t('follow-up-register.issued.studentId'),
    t('follow-up-register.issued.classroom'),
    t('followUp.steps.step'),
  ]
  const issuedHeaders = [
    t('follow-up-register.issued.student'),
    t('follow-up-register.issued.studentId'),
    t('follow-up-register.issued.classroom'),
    t('follow-up-register.issued.step'),
    t('follow-up-register.issued.unexcused'),
    t('follow-up-register.issued.issuedOn'),
    t('follow-up-register.issued.hijri'),
    t('follow-up-register.issued.issuedBy'),
    t('follow-up-register.issued.status'),
    t('follow-up-register.issued.notes'),
  ]
  const counts = [
    [t('follow-up-register.figures.reached'), view.atStep.length],
    [t('follow-up-register.figures.outstanding'), view.outstanding.length],
    [t('follow-up-register.figures.issued'), view.issued.length],
    [t('follow-up-register.figures.signed'), view.issued.filter((e) => e.status === 'signed').length],
    [t('follow-up-register.figures.declined'), view.issued.filter((e) => e.status === 'declined').length],
    [t('follow-up-register.figures.awaiting'), view.issued.filter((e) => e.status === 'awaiting').length],
  ] as const

  const fileName = { kind: 'follow-up', title, createdAt: now }
  if (format === 'xlsx') {
    const integer = (n: number): XlsxCell => ({ value: n, style: 'integer' })
    const bytes = writeWorkbook({
      created: now,
      sheets: [
        summarySheet(
          t('follow-up-register.export.sheets.classrooms'),
          lang,
          title,
          aboutLines(words, now, [[t('follow-up-register.year'), year]]),
          [
            counts.map(([label, n]) => [label, integer(n)]),
            [
              classroomHeaders.map(xlsxCells.header),
              ...view.byClassroom.map((c) => [classroom(c), integer(c.reached), integer(c.issued), integer(c.outstanding)]),
            ],
          ],
        ),
        tableSheet(
          t('follow-up-register.export.sheets.outstanding'),
          lang,
          [...outstandingHeaders.slice(0, 4), t('follow-up-register.issued.unexcusedNow')],
          view.outstanding.map((s) => [s.name, s.studentId, classroom(s), stepName(s.ladderStep), integer(s.unexcused)]),
        ),
        tableSheet(
          t('follow-up-register.export.sheets.issued'),
          lang,
          issuedHeaders,
          view.issued.map((e) => [
            e.studentName,
            e.studentId,
            classroom(e),
            stepName({ name: e.stepName, document: e.document }),
            integer(e.unexcused),
            { value: new Date(`${e.issuedOn}T00:00:00Z`), style: 'date' },
            formatDay(lang, e.issuedOn).hijri,
            e.issuedBy,
            status(e.status),
            e.notes,
          ]),
        ),
      ],
    })
    return exportResponse(bytes, 'xlsx', fileName)
  }

  const base = pdfReportBase(words, { kind: 'absence', title: year, createdAt: now, about: [], tones, preparedBy })
  const bytes = await renderReportPdf(body, {
    ...base,
    title: t('follow-up-register.title'),
    subtitle: `${t('follow-up-register.year')} ${year}`,
    // The data the body below reads, beside the kit's own.
    ...({
      register: {
        figures: counts.map(([label, n]) => ({ label, value: words.integer(n) })),
        classrooms: {
          title: t('follow-up-register.byClassroom.title'),
          headers: classroomHeaders,
          rows: view.byClassroom.map((c) => [
            classroom(c),
            words.integer(c.reached),
            words.integer(c.issued),
            words.integer(c.outstanding),
          ]),
          none: t('follow-up-register.byClassroom.none'),
        },
        outstanding: {
          title: t('follow-up-register.outstanding.title'),
          headers: [outstandingHeaders[0], outstandingHeaders[2], outstandingHeaders[3], t('follow-up-register.issued.unexcusedNow')],
          rows: view.outstanding.map((s) => [s.name, classroom(s), stepName(s.ladderStep), words.integer(s.unexcused)]),
          none: t('follow-up-register.outstanding.none'),
        },
        issued: {
          title: t('follow-up-register.issued.title'),
          headers: [issuedHeaders[0], issuedHeaders[2], issuedHeaders[3], issuedHeaders[5], issuedHeaders[7], issuedHeaders[8]],
          rows: view.issued.map((e) => [
            e.studentName,
            classroom(e),
            stepName({ name: e.stepName, document: e.document }),
            day(e.issuedOn),
            e.issuedBy,
            status(e.status) + (e.notes ? ` — ${e.notes}` : ''),
          ]),
          none: t('follow-up-register.issued.none'),
        },
      },
    } as object),
  })
  return exportResponse(bytes, 'pdf', fileName)
}

const body = String.raw`
#let r = d.register
#report-header()
#v(4mm)
#count-boxes(r.figures.slice(0, 3))
#v(2mm)
#count-boxes(r.figures.slice(3))

#section(r.classrooms.title)
#if r.classrooms.rows.len() == 0 { par(r.classrooms.none) } else {
  data-table(r.classrooms.headers, r.classrooms.rows)
}

#section(r.outstanding.title)
#if r.outstanding.rows.len() == 0 { par(r.outstanding.none) } else {
  data-table(r.outstanding.headers, r.outstanding.rows, labels: 3, widths: (1.6fr, 1fr, 1.2fr, auto))
}

#section(r.issued.title)
#if r.issued.rows.len() == 0 { par(r.issued.none) } else {
  data-table(r.issued.headers, r.issued.rows, labels: 6, widths: (1.4fr, 1fr, 1fr, 1.2fr, 1fr, 1.4fr))
}

#sign-off()
`
