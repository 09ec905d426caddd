const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** A workbook download: a file name in ASCII and in UTF-8 (RFC 6266), never cached by proxies. */
export function xlsxResponse(bytes: Uint8Array, fileName: string, asciiName: string): Response {
  return new Response(new Uint8Array(bytes), {
    headers: {
      'Content-Type': XLSX_TYPE,
      'Content-Length': String(bytes.byteLength),
      'Content-Disposition': `attachment; filename="${asciiName.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      'Cache-Control': 'private, no-store',
    },
  })
}
