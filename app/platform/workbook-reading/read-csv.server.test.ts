import { describe, expect, it } from 'vitest'
import { XlsxError, type XlsxErrorCode } from '#app/platform/xlsx/types.ts'
import { encodeWindows1256 } from '#tests/support/workbooks.ts'
import type { ReadWorkbookOptions } from './grid.ts'
import { readWorkbook } from './read-workbook.server.ts'

const MB = 1 << 20
const options: ReadWorkbookOptions = { maxUncompressedBytes: 200 * MB, maxRows: 500_040, maxSheets: 1000, timeBudgetMs: 10_000 }
const utf8 = (text: string) => new TextEncoder().encode(text)
const withBom = (text: string) => new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)])

function refuse(data: Uint8Array, opts: Partial<ReadWorkbookOptions> = {}) {
  const rss = process.memoryUsage().rss
  const t0 = performance.now()
  let code: XlsxErrorCode | 'no error' = 'no error'
  try {
    readWorkbook(data, { ...options, ...opts })
  } catch (error) {
    if (!(error instanceof XlsxError)) throw error
    code = error.code
  }
  return { code, ms: performance.now() - t0, rssGrowthMb: (process.memoryUsage().rss - rss) / MB }
}

const rowsOf = (data: Uint8Array) => {
  const grid = readWorkbook(data, options)
  expect(grid.container).toBe('csv')
  expect(grid.sheets).toHaveLength(1)
  expect(grid.sheets[0]!.name).toBeNull()
  expect(grid.sheets[0]!.merges).toEqual([])
  return grid.sheets[0]!.rows
}

const noorReport = (delimiter: string) =>
  [
    ['', '', 'تقرير غياب الطلاب'],
    [],
    ['التأخر', 'الغياب بدون عذر', 'الغياب بعذر', '', 'الاســـم', 'رقم الهوية'],
    ['0', '2', '1', '', 'خالد زياد سعود الدوسري', '1136393978.0'],
    ['4', '', '3', '', 'فيصل يوسف ناصر الزهراني', '1.10002E+09'],
  ]
    .map((r) => r.join(delimiter))
    .join('\r\n') + '\r\n'

const expectedRows = [
  { row: 1, cells: [null, null, 'تقرير غياب الطلاب'] },
  { row: 3, cells: ['التأخر', 'الغياب بدون عذر', 'الغياب بعذر', null, 'الاســـم', 'رقم الهوية'] },
  { row: 4, cells: ['0', '2', '1', null, 'خالد زياد سعود الدوسري', '1136393978.0'] },
  { row: 5, cells: ['4', null, '3', null, 'فيصل يوسف ناصر الزهراني', '1.10002E+09'] },
]

describe('readWorkbook reads CSV', () => {
  it('reads UTF-8 with and without a BOM, and Windows-1256, with commas or semicolons, values as written', () => {
    for (const delimiter of [',', ';']) {
      const text = noorReport(delimiter)
      expect(rowsOf(utf8(text))).toEqual(expectedRows)
      expect(rowsOf(withBom(text))).toEqual(expectedRows)
      expect(rowsOf(encodeWindows1256(text))).toEqual(expectedRows)
    }
  })

  it('reads quoted fields with the delimiter, quotes and line breaks inside', () => {
    const text = 'الاسم;الملاحظة;العدد\n"الغامدي; محمد";"قال ""حاضر""";"1,5"\n"سطر\nثان";;7\n'
    expect(rowsOf(utf8(text))).toEqual([
      { row: 1, cells: ['الاسم', 'الملاحظة', 'العدد'] },
      { row: 2, cells: ['الغامدي; محمد', 'قال "حاضر"', '1,5'] },
      { row: 3, cells: ['سطر\nثان', null, '7'] },
    ])
    // Commas in the majority outside quotes, semicolons only inside them.
    expect(rowsOf(utf8('"a;b;c;d",x\n"e;f",y\n'))).toEqual([
      { row: 1, cells: ['a;b;c;d', 'x'] },
      { row: 2, cells: ['e;f', 'y'] },
    ])
  })

  it('keeps rows of different lengths, a last line without a line end, and LF or CR line ends', () => {
    expect(rowsOf(utf8('a,b,c\nd\n,,,,e'))).toEqual([
      { row: 1, cells: ['a', 'b', 'c'] },
      { row: 2, cells: ['d'] },
      { row: 3, cells: [null, null, null, null, 'e'] },
    ])
    expect(rowsOf(utf8('a\rb\r'))).toEqual([
      { row: 1, cells: ['a'] },
      { row: 2, cells: ['b'] },
    ])
  })

  it('refuses one line of 10 million characters quickly, in bounded memory', () => {
    const data = utf8(`a,${'x'.repeat(10_000_000)}\n`)
    const result = refuse(data)
    expect(result.code).toBe('line_too_long')
    expect(result.ms).toBeLessThan(1000)
    expect(result.rssGrowthMb).toBeLessThan(48)
  })

  it('refuses a CSV of 1,048,577 lines quickly', () => {
    const data = utf8('محمد,حاضر\n'.repeat(1_048_577))
    const result = refuse(data)
    expect(result.code).toBe('too_many_rows')
    expect(result.ms).toBeLessThan(2000)
    expect(refuse(utf8('a\n\n\nb\n'), { maxRows: 2 }).code).toBe('no error')
    expect(refuse(utf8('a\n\n\nb\nc'), { maxRows: 2 }).code).toBe('too_many_rows')
  })

  it('refuses a binary file, whatever its name, and an empty one', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52])
    const random = Uint8Array.from({ length: 4096 }, (_v, i) => (i * 7919 + 13) % 256)
    const utf16 = new Uint8Array(Buffer.from('\uFEFFاسم الطالب,الحالة\r\n', 'utf16le'))
    for (const data of [png, random, utf16, utf8('اسم,حالة\nمحمد\u0000,حاضر\n'), new Uint8Array(0)]) {
      const result = refuse(data)
      expect(result.code).toBe('format')
      expect(result.ms).toBeLessThan(1000)
    }
  })

  it('refuses a CSV mixing UTF-8 and Windows-1256, and a UTF-8 BOM before bytes that are not UTF-8', () => {
    const mixed = new Uint8Array([...utf8('اسم الطالب,الحالة\nمحمد أحمد,حاضر\n'), ...encodeWindows1256('خالد سعود,غائب\n')])
    expect(refuse(mixed).code).toBe('mixed_encoding')
    expect(refuse(new Uint8Array([0xef, 0xbb, 0xbf, ...encodeWindows1256('اسم,حالة\n')])).code).toBe('mixed_encoding')
    // Windows-1256 alone, with the few pairs that look like UTF-8 by chance (a letter before ؟), is read.
    const question = encodeWindows1256('ملاحظة,هل غاب؟\nمحمد,نعم؟ لا\n'.repeat(20))
    expect(rowsOf(question)[0]!.cells).toEqual(['ملاحظة', 'هل غاب؟'])
  })

  it('refuses a file over the uncompressed limit, and stops at the time budget', () => {
    const data = utf8('محمد,حاضر\n'.repeat(1000))
    expect(refuse(data, { maxUncompressedBytes: 1000 }).code).toBe('too_large')
    expect(refuse(utf8('a,b\n'.repeat(100_000)), { timeBudgetMs: 0 }).code).toBe('timeout')
  })

  it('refuses an unclosed quote as format', () => {
    expect(refuse(utf8('a,"b\nc,d\n')).code).toBe('format')
  })
})
