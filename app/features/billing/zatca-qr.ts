/**
 * The ZATCA phase-1 QR content: five TLV entries (tag byte, length byte in bytes, UTF-8 value),
 * then Base64. Tags: 1 seller name, 2 VAT number, 3 time (ISO-8601), 4 total with VAT, 5 VAT.
 */
export function zatcaQr(fields: { sellerName: string; vatNumber: string; timestamp: string; total: string; vat: string }): string {
  const values = [fields.sellerName, fields.vatNumber, fields.timestamp, fields.total, fields.vat]
  const parts: number[] = []
  values.forEach((value, index) => {
    const bytes = new TextEncoder().encode(value)
    if (bytes.length > 255) throw new RangeError(`QR field ${index + 1} is longer than 255 bytes`)
    parts.push(index + 1, bytes.length, ...bytes)
  })
  return Buffer.from(parts).toString('base64')
}

/** Decodes the TLV back (for tests and for reading an invoice's QR). */
export function readZatcaQr(base64: string): string[] {
  const bytes = Buffer.from(base64, 'base64')
  const out: string[] = []
  let i = 0
  while (i + 2 <= bytes.length) {
    const length = bytes[i + 1] ?? 0
    out.push(new TextDecoder().decode(bytes.subarray(i + 2, i + 2 + length)))
    i += 2 + length
  }
  return out
}

/** Halalas as the QR and the invoice print them: `1000.00`. */
export function halalasToDecimal(halalas: number): string {
  const sign = halalas < 0 ? '-' : ''
  const abs = Math.abs(halalas)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}
