import qrcode from 'qrcode-generator'

/** A QR code as a scalable SVG (dark modules as one path, a 4-module quiet zone). */
export function qrSvg(text: string, options: { errorLevel?: 'L' | 'M' | 'Q' | 'H' } = {}): string {
  const qr = qrcode(0, options.errorLevel ?? 'M')
  qr.addData(text, 'Byte')
  qr.make()
  const size = qr.getModuleCount()
  const quiet = 4
  let path = ''
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) if (qr.isDark(row, col)) path += `M${col + quiet} ${row + quiet}h1v1h-1z`
  }
  const full = size + quiet * 2
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${full} ${full}" shape-rendering="crispEdges"><rect width="${full}" height="${full}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`
}

export function qrSvgDataUrl(text: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(qrSvg(text)).toString('base64')}`
}
