import { inflateRawSync } from 'node:zlib'
import * as XLSX from '@e965/xlsx'
import { describe, expect, it } from 'vitest'
import { writeWorkbook } from './write.server.ts'

// Text a teacher or a workbook supplied (a student's name, a test title) reaches an export as
// written. Text that a spreadsheet could take for a formula stays a string cell, and nothing the
// writer does to it (dropping characters XML cannot carry) may turn harmless text into text that
// starts like a formula, should it be copied out of the cell or saved as CSV.
const formulaLike = [
  '=1+1',
  '+966501234567',
  '-5',
  '@SUM(A1:A2)',
  '=HYPERLINK("https://evil.example","مرحبا")',
  '\t=1+1',
  '\r=1+1',
  '\r\n=1+1',
  "\u0000=cmd|' /C calc'!A0",
  '\u0001+1',
  '\u001B@SUM(A1)',
  '\uD800-1',
]

/** The entries of the written archive, for reading the sheet's XML itself. */
function entry(bytes: Uint8Array, name: string): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let p = 0; p < buf.length - 30;) {
    if (buf.readUInt32LE(p) !== 0x04034b50) break
    const method = buf.readUInt16LE(p + 8)
    const size = buf.readUInt32LE(p + 18)
    const nameLength = buf.readUInt16LE(p + 26)
    const extra = buf.readUInt16LE(p + 28)
    const file = buf.subarray(p + 30, p + 30 + nameLength).toString('utf8')
    const data = buf.subarray(p + 30 + nameLength + extra, p + 30 + nameLength + extra + size)
    if (file === name) return (method === 8 ? inflateRawSync(data) : data).toString('utf8')
    p += 30 + nameLength + extra + size
  }
  throw new Error(`${name} not in the archive`)
}

describe('text that could pass for a formula', () => {
  it('is written as a string cell with exactly its text, never as a formula', () => {
    const bytes = writeWorkbook({ sheets: [{ name: 'S', rows: formulaLike.map((text) => [text, { value: text, style: 'bold' }]) }] })
    const ws = XLSX.read(bytes, { type: 'array', cellFormula: true }).Sheets.S as XLSX.WorkSheet
    formulaLike.forEach((text, i) => {
      for (const column of ['A', 'B']) {
        const cell = ws[`${column}${i + 1}`] as XLSX.CellObject
        // A CRLF is one line break, written as Excel writes it (LF); everything else is exact.
        expect({ text, type: cell.t, value: cell.v, formula: cell.f }).toEqual({
          text,
          type: 's',
          value: text.replace('\r\n', '\n'),
          formula: undefined,
        })
      }
    })
    expect(entry(bytes, 'xl/worksheets/sheet1.xml')).not.toMatch(/<f[ >]/)
  })

  it('keeps a character XML cannot carry as Excel’s own escape, so nothing moves a formula sign to the front', () => {
    const bytes = writeWorkbook({ sheets: [{ name: 'S', rows: [['\u0001=1+1'], ['a\u0000b'], ['_x0041_ literal']] }] })
    const strings = entry(bytes, 'xl/sharedStrings.xml')
    expect(strings).toContain('<t>_x0001_=1+1</t>')
    expect(strings).toContain('<t>a_x0000_b</t>')
    expect(strings).toContain('<t>_x005F_x0041_ literal</t>')
  })
})
