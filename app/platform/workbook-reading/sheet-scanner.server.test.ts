import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Clock } from './clock.ts'
import { createSheetScanner, lastRowEnd, scanSheet, type ScanBudget } from './sheet-scanner.server.ts'

// A worksheet is read as it is inflated, a piece at a time, each piece cut right after a row's
// closing tag: what the pieces give must be what the whole sheet gives, wherever it is cut.

const context = (budget: ScanBudget = { rowsRead: 0, maxRows: 1_000_000, merges: 0 }) => ({
  sharedStrings: ['اسم', 'Name'],
  dateStyles: new Uint8Array([0, 1]),
  date1904: false,
  budget,
  clock: new Clock(60_000),
})

/**
 * A worksheet with every kind of row the scanner meets: prefixed tags, rows without `r`, inline
 * and shared strings, dates, merges after the data.
 */
function sheet(rows: number, prefix: string): Buffer {
  const p = prefix ? `${prefix}:` : ''
  let xml = `<?xml version="1.0" encoding="UTF-8"?><${p}worksheet xmlns${prefix ? `:${prefix}` : ''}="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><${p}sheetData>`
  for (let r = 1; r <= rows; r++) {
    const ref = r % 7 === 0 ? '' : ` r="${r}"`
    xml +=
      `<${p}row${ref}>` +
      `<${p}c r="A${r}" t="s"><${p}v>${r % 2}</${p}v></${p}c>` +
      `<${p}c t="inlineStr"><${p}is><${p}t>سطر ${r} &amp; row&lt;${r}&gt;</${p}t></${p}is></${p}c>` +
      `<${p}c s="1"><${p}v>${45_000 + r}</${p}v></${p}c>` +
      `<${p}c><${p}v>${r / 4}</${p}v></${p}c>` +
      `</${p}row>`
    if (r % 11 === 0) xml += `<${p}row r="${r + 100_000}"/>`
  }
  xml += `</${p}sheetData><${p}mergeCells count="1"><${p}mergeCell ref="A1:B2"/></${p}mergeCells></${p}worksheet>`
  return Buffer.from(xml, 'utf8')
}

/** The sheet scanned in pieces: cut after the row ends at the given fractions of its length. */
function scanInPieces(b: Buffer, cuts: readonly number[]) {
  const scanner = createSheetScanner(context())
  let start = 0
  for (const fraction of [...cuts].sort((x, y) => x - y)) {
    const end = lastRowEnd(b.subarray(0, Math.floor(b.length * fraction)))
    if (end <= start) continue
    scanner.feed(b.subarray(start, end))
    start = end
  }
  scanner.feed(b.subarray(start))
  return scanner.end()
}

describe('a worksheet scanned in pieces', () => {
  it('finds the end of the last row, prefixed or not, and nothing that only looks like one', () => {
    expect(lastRowEnd(Buffer.from('<row r="1"><c><v>1</v></c></row><row r="2">'))).toBe('<row r="1"><c><v>1</v></c></row>'.length)
    expect(lastRowEnd(Buffer.from('<x:row><x:c/></x:row><x:row>'))).toBe('<x:row><x:c/></x:row>'.length)
    expect(lastRowEnd(Buffer.from('<row r="1"><c/>'))).toBe(-1)
    expect(lastRowEnd(Buffer.from('<sheetData><row>'))).toBe(-1)
    expect(lastRowEnd(Buffer.from('row>'))).toBe(-1)
  })

  for (const prefix of ['', 'x']) {
    it(`gives the same rows and merges as the whole sheet, wherever it is cut${prefix ? ' (prefixed tags)' : ''}`, () => {
      const b = sheet(300, prefix)
      const whole = scanSheet(b, context())
      expect(whole.rows).toHaveLength(300)
      expect(whole.merges).toEqual([{ firstRow: 1, lastRow: 2, firstColumn: 0, lastColumn: 1 }])
      fc.assert(
        fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }), (cuts) => {
          expect(scanInPieces(b, cuts)).toEqual(whole)
        }),
        { numRuns: 60 },
      )
    })
  }

  it('counts rows against the budget across pieces, and says a sheet cut short is truncated', () => {
    const b = sheet(50, '')
    const scanner = createSheetScanner(context({ rowsRead: 0, maxRows: 30, merges: 0 }))
    expect(() => {
      for (let start = 0, end = lastRowEnd(b.subarray(0, 400)); end > start; start = end, end = lastRowEnd(b.subarray(0, end + 400)))
        scanner.feed(b.subarray(start, end))
    }).toThrow('more than 30 rows')

    const cut = createSheetScanner(context())
    cut.feed(b.subarray(0, lastRowEnd(b.subarray(0, b.length / 2))))
    expect(() => cut.end()).toThrow('truncated worksheet')
  })
})
