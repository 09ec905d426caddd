import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { crc32, inflateRawSync } from 'node:zlib'
import * as XLSX from '@e965/xlsx'
import { describe, expect, it } from 'vitest'
import { columnName, toExcelSerial, writeWorkbook, type XlsxWorkbook } from './write.server.ts'

const created = new Date(Date.UTC(2025, 8, 7, 6, 30, 12))

/** Reads the archive by its central directory and checks each local header against it. */
function unzipEntries(bytes: Uint8Array): Map<string, string> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const end = buf.length - 22
  expect(buf.readUInt32LE(end)).toBe(0x06054b50)
  const count = buf.readUInt16LE(end + 10)
  expect(buf.readUInt16LE(end + 8)).toBe(count)
  const centralSize = buf.readUInt32LE(end + 12)
  const centralOffset = buf.readUInt32LE(end + 16)
  expect(centralOffset + centralSize).toBe(end)
  const out = new Map<string, string>()
  let p = centralOffset
  for (let i = 0; i < count; i++) {
    expect(buf.readUInt32LE(p)).toBe(0x02014b50)
    const method = buf.readUInt16LE(p + 10)
    const crc = buf.readUInt32LE(p + 16)
    const compressedSize = buf.readUInt32LE(p + 20)
    const size = buf.readUInt32LE(p + 24)
    const nameLength = buf.readUInt16LE(p + 28)
    const extraLength = buf.readUInt16LE(p + 30)
    const commentLength = buf.readUInt16LE(p + 32)
    const localOffset = buf.readUInt32LE(p + 42)
    const name = buf.toString('utf8', p + 46, p + 46 + nameLength)

    expect(buf.readUInt32LE(localOffset)).toBe(0x04034b50)
    expect(buf.readUInt16LE(localOffset + 6) & 0x08).toBe(0) // no data descriptor
    expect(buf.readUInt16LE(localOffset + 8)).toBe(method)
    expect(buf.readUInt32LE(localOffset + 14)).toBe(crc)
    expect(buf.readUInt32LE(localOffset + 18)).toBe(compressedSize)
    expect(buf.readUInt32LE(localOffset + 22)).toBe(size)
    const localNameLength = buf.readUInt16LE(localOffset + 26)
    expect(buf.toString('utf8', localOffset + 30, localOffset + 30 + localNameLength)).toBe(name)
    const dataStart = localOffset + 30 + localNameLength + buf.readUInt16LE(localOffset + 28)
    const data = inflateRawSync(buf.subarray(dataStart, dataStart + compressedSize))
    expect(data.length).toBe(size)
    expect(crc32(data) >>> 0).toBe(crc)
    out.set(name, data.toString('utf8'))
    p += 46 + nameLength + extraLength + commentLength
  }
  expect(p).toBe(end)
  return out
}

function read(bytes: Uint8Array) {
  return XLSX.read(bytes, { type: 'buffer', cellNF: true, cellStyles: true })
}

const sample: XlsxWorkbook = {
  created,
  creator: 'Test & <Co>',
  sheets: [
    {
      name: 'الملخص',
      rightToLeft: true,
      columns: [{ width: 30 }, undefined, { width: 12.5 }],
      freezeRows: 2,
      merges: ['A1:C1'],
      rows: [
        [{ value: 'تقرير الغياب', style: 'title' }],
        [
          { value: 'البند', style: 'header' },
          { value: 'العدد', style: 'header' },
          { value: 'النسبة', style: 'header' },
        ],
        ['حاضر', { value: 1234, style: 'integer' }, { value: 0.9333, style: 'percent' }],
        ['غائب', { value: 88, style: 'integer' }, { value: 0.0667, style: 'percent1' }],
        ['متوسط', { value: 1.005, style: 'decimal2' }, null, { value: 'مهم', style: 'bold' }],
        [true, false, { value: new Date(Date.UTC(2025, 8, 7)), style: 'date' }, new Date(Date.UTC(2025, 8, 8, 12))],
        [{ kind: 'date', serial: 45908 }, -0, -12.75, 1e-7],
      ],
    },
    { name: 'Summary', rows: [['plain']] },
  ],
}

describe('writeWorkbook', () => {
  it('writes a zip whose entries are consistent and hold every part of the package', () => {
    const entries = unzipEntries(writeWorkbook(sample))
    expect([...entries.keys()]).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'docProps/app.xml',
      'docProps/core.xml',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
      'xl/worksheets/sheet2.xml',
      'xl/sharedStrings.xml',
    ])
    const withoutDeclaration = [...entries].filter(
      ([, xml]) => !xml.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<'),
    )
    expect(withoutDeclaration.map(([name]) => name)).toEqual([])
    expect(entries.get('docProps/core.xml')).toContain('<dc:creator>Test &amp; &lt;Co&gt;</dc:creator>')
    expect(entries.get('docProps/core.xml')).toContain('2025-09-07T06:30:12Z')
    const sheet1 = entries.get('xl/worksheets/sheet1.xml') ?? ''
    expect(sheet1).toContain('rightToLeft="1"')
    expect(sheet1).toContain('<pane ySplit="2" topLeftCell="A3" activePane="bottomLeft" state="frozen"/>')
    expect(sheet1).toContain('<dimension ref="A1:D7"/>')
    expect(entries.get('xl/worksheets/sheet2.xml')).not.toContain('rightToLeft')
  })

  it('passes `unzip -t` where unzip is installed', (context) => {
    let hasUnzip = true
    try {
      execFileSync('unzip', ['-v'], { stdio: 'ignore' })
    } catch {
      hasUnzip = false
    }
    if (!hasUnzip) return context.skip()
    const dir = mkdtempSync(path.join(tmpdir(), 'hallil-xlsx-'))
    try {
      const file = path.join(dir, 'book.xlsx')
      writeFileSync(file, writeWorkbook(sample))
      const out = execFileSync('unzip', ['-t', file], { encoding: 'utf8' })
      expect(out).toContain('No errors detected')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('round-trips values and number formats through SheetJS', () => {
    const wb = read(writeWorkbook(sample))
    expect(wb.SheetNames).toEqual(['الملخص', 'Summary'])
    const ws = wb.Sheets['الملخص'] as XLSX.WorkSheet
    const cell = (ref: string) => ws[ref] as XLSX.CellObject

    expect(cell('A1').v).toBe('تقرير الغياب')
    expect(cell('B3')).toMatchObject({ t: 'n', v: 1234, z: '#,##0', w: '1,234' })
    expect(cell('C3')).toMatchObject({ t: 'n', v: 0.9333, z: '0.00%', w: '93.33%' })
    expect(cell('C4')).toMatchObject({ t: 'n', v: 0.0667, z: '0.0%', w: '6.7%' })
    expect(cell('B5')).toMatchObject({ t: 'n', v: 1.005, z: '#,##0.00' })
    expect(cell('C5')).toBeUndefined()
    expect(cell('D5').v).toBe('مهم')
    expect(cell('A6')).toMatchObject({ t: 'b', v: true })
    expect(cell('B6')).toMatchObject({ t: 'b', v: false })
    expect(cell('C6')).toMatchObject({ t: 'n', v: 45907, z: 'yyyy-mm-dd', w: '2025-09-07' })
    // A Date without a style gets the date format; its time of day is kept as the fraction.
    expect(cell('D6')).toMatchObject({ t: 'n', v: 45908.5, z: 'yyyy-mm-dd', w: '2025-09-08' })
    expect(cell('A7')).toMatchObject({ t: 'n', v: 45908, z: 'yyyy-mm-dd' })
    expect(cell('B7').v).toBe(0)
    expect(cell('C7').v).toBe(-12.75)
    expect(cell('D7').v).toBe(1e-7)

    expect(ws['!merges']).toEqual([{ s: { r: 0, c: 0 }, e: { r: 0, c: 2 } }])
    expect(ws['!cols']?.[0]?.width).toBe(30)
    expect(ws['!cols']?.[2]?.width).toBe(12.5)
    expect(wb.Workbook?.Views?.[0]?.RTL).toBe(true)
  })

  it('reads dates back as dates', () => {
    const wb = XLSX.read(writeWorkbook(sample), { type: 'buffer', cellDates: true, UTC: true })
    const ws = wb.Sheets['الملخص'] as XLSX.WorkSheet
    expect((ws.C6 as XLSX.CellObject).v).toEqual(new Date(Date.UTC(2025, 8, 7)))
    expect((ws.D6 as XLSX.CellObject).v).toEqual(new Date(Date.UTC(2025, 8, 8, 12)))
  })

  it('keeps a left-to-right workbook left to right', () => {
    const wb = read(writeWorkbook({ sheets: [{ name: 'A', rows: [['x']] }] }))
    expect(wb.Workbook?.Views?.[0]?.RTL).toBeFalsy()
  })

  it('escapes text, keeps control characters as Excel’s escapes and keeps what Excel would otherwise decode', () => {
    const tricky = [
      '<b>&"quotes"\'</b>',
      'a\u0000b\u0007c\u001Fd',
      'line one\r\nline two',
      '  padded  ',
      '_x0041_ stays literal',
      'emoji 🙂 and lone \uD800 surrogate',
      'ﷺ ١٢٣ مُحمّد',
    ]
    const bytes = writeWorkbook({ sheets: [{ name: 'T', rows: tricky.map((t) => [t]) }] })
    const ws = read(bytes).Sheets.T as XLSX.WorkSheet
    const values = tricky.map((_, i) => (ws[`A${i + 1}`] as XLSX.CellObject).v)
    expect(values).toEqual([
      '<b>&"quotes"\'</b>',
      'a\u0000b\u0007c\u001Fd',
      'line one\nline two',
      '  padded  ',
      '_x0041_ stays literal',
      'emoji 🙂 and lone \uD800 surrogate',
      'ﷺ ١٢٣ مُحمّد',
    ])
    const strings = unzipEntries(bytes).get('xl/sharedStrings.xml') ?? ''
    expect(strings).toContain('count="7" uniqueCount="7"')
    expect(strings).toContain('<t xml:space="preserve">  padded  </t>')
  })

  it('shares repeated strings', () => {
    const bytes = writeWorkbook({
      sheets: [
        {
          name: 'S',
          rows: [
            ['a', 'b'],
            ['a', 'b'],
            ['a', 'c'],
          ],
        },
      ],
    })
    expect(unzipEntries(bytes).get('xl/sharedStrings.xml')).toContain('count="6" uniqueCount="3"')
  })

  it('cuts text at the 32,767 characters a cell can hold', () => {
    const ws = read(writeWorkbook({ sheets: [{ name: 'S', rows: [['x'.repeat(40_000)]] }] })).Sheets.S as XLSX.WorkSheet
    expect(String((ws.A1 as XLSX.CellObject).v)).toHaveLength(32_767)
  })

  it('sanitises sheet names and makes them unique', () => {
    const names = [
      'Sales [2025]: Q1/Q2?',
      'A very long sheet name that goes past thirty-one characters',
      'a very long sheet name that goes past thirty-one characters',
      'summary',
      'Summary',
      '',
      "'quoted'",
      'history',
      'شرح الأعمدة',
    ]
    const wb = read(writeWorkbook({ sheets: names.map((name) => ({ name, rows: [[name]] })) }))
    expect(wb.SheetNames).toEqual([
      'Sales 2025 Q1 Q2',
      'A very long sheet name that goe',
      'a very long sheet name that (2)',
      'summary',
      'Summary (2)',
      'Sheet6',
      'quoted',
      'history (2)',
      'شرح الأعمدة',
    ])
    for (const name of wb.SheetNames) {
      expect(name.length).toBeLessThanOrEqual(31)
      expect(name).not.toMatch(/[[\]:*?/\\]/)
    }
  })

  it('writes an empty sheet and an empty string table', () => {
    const bytes = writeWorkbook({ sheets: [{ name: 'Empty', rows: [] }] })
    const entries = unzipEntries(bytes)
    expect(entries.get('xl/worksheets/sheet1.xml')).toContain('<dimension ref="A1"/>')
    expect(entries.get('xl/sharedStrings.xml')).toContain('count="0" uniqueCount="0"')
    expect(read(bytes).SheetNames).toEqual(['Empty'])
  })

  it('refuses what Excel would have to repair', () => {
    expect(() => writeWorkbook({ sheets: [] })).toThrow(/at least one sheet/)
    expect(() => writeWorkbook({ sheets: [{ name: 'S', rows: [[Number.NaN]] }] })).toThrow(/A1: NaN/)
    expect(() => writeWorkbook({ sheets: [{ name: 'S', rows: [[], [null, Infinity]] }] })).toThrow(/B2/)
    expect(() => writeWorkbook({ sheets: [{ name: 'S', rows: [], merges: ['A1:B2', 'B2:C3'] }] })).toThrow(/overlaps/)
    expect(() => writeWorkbook({ sheets: [{ name: 'S', rows: [], merges: ['A1-B2'] }] })).toThrow(/not a range/)
    expect(() => writeWorkbook({ sheets: [{ name: 'S', rows: [[new Date('x')]] }] })).toThrow(/Invalid date/)
    expect(() => writeWorkbook({ sheets: [{ name: 'S', rows: [[new Date(Date.UTC(1900, 0, 1))]] }] })).toThrow(/1900-03-01/)
  })
})

describe('helpers', () => {
  it('names columns as Excel does', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702, 16_383].map(columnName)).toEqual([
      'A',
      'B',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'XFD',
    ])
  })

  it('converts dates to Excel serials', () => {
    expect(toExcelSerial(new Date(Date.UTC(1900, 2, 1)))).toBe(61)
    expect(toExcelSerial(new Date(Date.UTC(2025, 8, 7)))).toBe(45907)
    expect(toExcelSerial(new Date(Date.UTC(2025, 8, 7, 18)))).toBe(45907.75)
  })
})
