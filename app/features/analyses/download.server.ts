const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const PDF_TYPE = 'application/pdf'

/** A download: a file name in ASCII and in UTF-8 (RFC 6266), never cached by proxies. */
function download(bytes: Uint8Array, type: string, fileName: string, asciiName: string): Response {
  return new Response(new Uint8Array(bytes), {
    headers: {
      'Content-Type': type,
      'Content-Length': String(bytes.byteLength),
      'Content-Disposition': `attachment; filename="${asciiName.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      'Cache-Control': 'private, no-store',
    },
  })
}

/** A workbook download (see `download`). */
export function xlsxResponse(bytes: Uint8Array, fileName: string, asciiName: string): Response {
  return download(bytes, XLSX_TYPE, fileName, asciiName)
}

/**
 * An export of a saved analysis as a download: named after its title (characters no file
 * system takes become spaces), with `<kind>-<day of the analysis>` for clients that only read
 * an ASCII name, and for a title with nothing left.
 */
export function exportResponse(
  bytes: Uint8Array,
  format: 'pdf' | 'xlsx',
  analysis: { kind: string; title: string; createdAt: Date },
): Response {
  const base = `${analysis.kind}-${analysis.createdAt.toISOString().slice(0, 10)}`
  const name =
    [...analysis.title]
      .map((ch) => ((ch.codePointAt(0) ?? 0) < 32 || '\\/:*?"<>|'.includes(ch) ? ' ' : ch))
      .join('')
      .slice(0, 80)
      .trim() || base
  return download(bytes, format === 'pdf' ? PDF_TYPE : XLSX_TYPE, `${name}.${format}`, `${base}.${format}`)
}
