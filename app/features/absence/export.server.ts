import type { Lang } from '#app/i18n/config.ts'
import { xlsxResponse } from '#app/features/analyses/index.server.ts'
import type { AbsenceAnalysis, AbsenceReport, StudentFigures } from './analyse-absence.ts'
import { absenceReportWorkbook, renderAbsenceReportPdf } from './exports.server.ts'

type Stored = { id: string; title: string; meta: Record<string, string>; report: unknown; records: unknown; createdAt: Date }

/** A stored analysis as the exports read it. */
export function storedAbsence(stored: Stored): AbsenceAnalysis {
  return { meta: stored.meta, report: stored.report as AbsenceReport, students: stored.records as StudentFigures[] }
}

function fileBase(stored: Stored): string {
  return `absence-${stored.createdAt.toISOString().slice(0, 10)}`
}

/** The Excel or PDF file of a saved absence analysis, as a download. */
export async function absenceExport(stored: Stored, format: 'pdf' | 'xlsx', lang: Lang): Promise<Response> {
  const input = { lang, title: stored.title, createdAt: stored.createdAt, analysis: storedAbsence(stored) }
  const name = `${[...stored.title].map((ch) => ((ch.codePointAt(0) ?? 0) < 32 || '\\/:*?"<>|'.includes(ch) ? ' ' : ch)).join('').slice(0, 80).trim() || fileBase(stored)}`
  if (format === 'xlsx') return xlsxResponse(absenceReportWorkbook(input), `${name}.xlsx`, `${fileBase(stored)}.xlsx`)
  const pdf = await renderAbsenceReportPdf(input)
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Length': String(pdf.byteLength),
      'Content-Disposition': `attachment; filename="${fileBase(stored)}.pdf"; filename*=UTF-8''${encodeURIComponent(`${name}.pdf`)}`,
      'Cache-Control': 'private, no-store',
    },
  })
}
