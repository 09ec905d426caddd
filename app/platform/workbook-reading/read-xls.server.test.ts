import { describe, expect, it } from 'vitest'
import { XlsxError, type XlsxErrorCode } from '#app/platform/xlsx/types.ts'
import { buildOle, buildXls, oleStream, sheetJsWorkbook, withDimensions, withFatEntry, type SheetSpec } from '#tests/support/workbooks.ts'
import type { ReadWorkbookOptions } from './grid.ts'
import { readWorkbook } from './read-workbook.server.ts'

const MB = 1 << 20
const options: ReadWorkbookOptions = { maxUncompressedBytes: 200 * MB, maxRows: 500_040, maxSheets: 1000, timeBudgetMs: 10_000 }

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

const students = (count: number) =>
  Array.from({ length: count }, (_v, i) => [
    `طالب رقم ${i + 1}`,
    1_100_000_000 + i,
    'الأول الثانوي_السنة المشتركة',
    i % 3 === 0 ? 'غائب' : 'حاضر',
  ])

const report: SheetSpec = {
  name: 'تقرير الغياب',
  rows: [
    [null, null, 'المملكة العربية السعودية'],
    ['من تاريخ', ':', '1447/03/01 هـ', null, 'ليس رقمًا', 12.5, true, false],
    ['التاريخ', new Date(Date.UTC(2025, 7, 24)), new Date(Date.UTC(2025, 7, 24, 12)), '', 0, -3, '123.0'],
    [],
    ['اسم الطالب', 'رقم الهوية', 'الصف', 'الحالة'],
    ...students(300),
  ],
  merges: [
    { s: { r: 0, c: 2 }, e: { r: 0, c: 6 } },
    { s: { r: 4, c: 0 }, e: { r: 4, c: 1 } },
  ],
}

describe('readWorkbook reads .xls (BIFF8)', () => {
  it('gives the same sheets, cells, dates and merged ranges as the .xlsx of the same content', () => {
    const sheets = [report, { name: 'School Info', rows: [['اسم المدرسة', 'ثانوية الأمير سلطان']] }]
    const xls = readWorkbook(sheetJsWorkbook(sheets, 'biff8'), options)
    const xlsx = readWorkbook(sheetJsWorkbook(sheets, 'xlsx'), options)
    expect(xls.container).toBe('xls')
    expect(xlsx.container).toBe('xlsx')
    expect(xls.sheets).toEqual(xlsx.sheets)
    const [first] = xls.sheets
    expect(first!.name).toBe('تقرير الغياب')
    expect(first!.rows.slice(0, 3)).toEqual([
      { row: 1, cells: [null, null, 'المملكة العربية السعودية'] },
      { row: 2, cells: ['من تاريخ', ':', '1447/03/01 هـ', null, 'ليس رقمًا', 12.5, true, false] },
      { row: 3, cells: ['التاريخ', { kind: 'date', serial: 45893 }, { kind: 'date', serial: 45893.5 }, '', 0, -3, '123.0'] },
    ])
    expect(first!.rows[3]!.row).toBe(5)
    expect(first!.merges).toEqual([
      { firstRow: 1, lastRow: 1, firstColumn: 2, lastColumn: 6 },
      { firstRow: 5, lastRow: 5, firstColumn: 0, lastColumn: 1 },
    ])
  })

  it('reads an .xls written record by record, large enough for its FAT to need DIFAT sectors', () => {
    const sheet = (name: string) => ({
      name,
      rows: [
        ['اسم الطالب', 'التاريخ', 'العدد'],
        ...Array.from({ length: 40_000 }, (_v, i) => [`محمد أحمد علي الغامدي ${i}`, { date: 45_893 + (i % 100) }, i]),
      ],
      merges: [{ s: { r: 0, c: 0 }, e: { r: 0, c: 1 } }],
    })
    const data = buildXls([sheet('الأول'), sheet('الثاني')])
    expect(data.length).toBeGreaterThan(109 * 128 * 512) // more sectors than the header's 109 FAT sectors map
    // A loaded CI machine may take a while over 10 MB: the budget is not what this test is about.
    const grid = readWorkbook(data, { ...options, timeBudgetMs: 60_000 })
    expect(grid.sheets.map((s) => [s.name, s.rows.length])).toEqual([
      ['الأول', 40_001],
      ['الثاني', 40_001],
    ])
    expect(grid.sheets[1]!.rows[40_000]).toEqual({
      row: 40_001,
      cells: ['محمد أحمد علي الغامدي 39999', { kind: 'date', serial: 45_992 }, 39_999],
    })
    expect(grid.sheets[0]!.merges).toEqual([{ firstRow: 1, lastRow: 1, firstColumn: 0, lastColumn: 1 }])
  })

  it('converts dates of the 1904 date system to the 1900 serial', () => {
    const data = sheetJsWorkbook([{ name: 'S', rows: [[new Date(Date.UTC(2025, 7, 24))]] }], 'biff8', { date1904: true })
    expect(readWorkbook(data, options).sheets[0]!.rows).toEqual([{ row: 1, cells: [{ kind: 'date', serial: 45893 }] }])
  })

  it('counts rows over all sheets and sheets against their limits', () => {
    const data = sheetJsWorkbook(
      [report, report].map((s, i) => ({ ...s, name: `S${i}` })),
      'biff8',
    )
    expect(refuse(data, { maxRows: 608 }).code).toBe('no error')
    expect(refuse(data, { maxRows: 607 }).code).toBe('too_many_rows')
    expect(refuse(data, { maxRows: 100 }).code).toBe('too_many_rows')
    expect(refuse(data, { maxSheets: 2 }).code).toBe('no error')
    expect(refuse(data, { maxSheets: 1 }).code).toBe('too_many_sheets')
  })

  it('refuses an OLE file without a workbook stream, and an encrypted workbook as encrypted', () => {
    expect(refuse(buildOle(['WordDocument', '\u0005SummaryInformation'])).code).toBe('format')
    expect(refuse(buildOle(['EncryptionInfo', 'EncryptedPackage', '\u0006DataSpaces'])).code).toBe('encrypted')
  })

  it('refuses an .xls whose sector chain loops, or points past the file, quickly', () => {
    const data = sheetJsWorkbook([report], 'biff8')
    const { start, size } = oleStream(data, 'Workbook')
    expect(size).toBeGreaterThan(4096) // in the FAT, not the mini stream
    for (const broken of [
      withFatEntry(data, start, start),
      withFatEntry(data, start + 1, start),
      withFatEntry(data, start, 0x00ff_fff0),
      withFatEntry(data, start, 0xffff_ffff),
    ]) {
      const result = refuse(broken)
      expect(result.code).toBe('format')
      expect(result.ms).toBeLessThan(1000)
    }
    // The directory's own chain looping on itself.
    const directory = Buffer.from(data).readUInt32LE(48)
    expect(refuse(withFatEntry(data, directory, directory)).code).toBe('format')
  })

  it('refuses a workbook stream larger than the uncompressed limit before reading it', () => {
    const data = sheetJsWorkbook([report], 'biff8')
    expect(refuse(data, { maxUncompressedBytes: 4096 }).code).toBe('too_large')
  })

  it('refuses an .xls claiming a sheet larger than BIFF8 holds, and reads one claiming the largest it holds in bounded memory', () => {
    const data = sheetJsWorkbook([{ name: 'S', rows: [['اسم الطالب'], ['محمد']] }], 'biff8')
    for (const [rows, columns] of [
      [0xffff_ffff, 256],
      [2_000_000, 10],
      [100, 0xffff],
    ] as const) {
      const result = refuse(withDimensions(data, rows, columns))
      expect(result.code).toBe('format')
      expect(result.ms).toBeLessThan(1000)
    }
    const rss = process.memoryUsage().rss
    const t0 = performance.now()
    const grid = readWorkbook(withDimensions(data, 65_536, 256), options)
    expect(performance.now() - t0).toBeLessThan(1000)
    expect((process.memoryUsage().rss - rss) / MB).toBeLessThan(64)
    expect(grid.sheets[0]!.rows).toEqual([
      { row: 1, cells: ['اسم الطالب'] },
      { row: 2, cells: ['محمد'] },
    ])
  })

  it('refuses truncated and damaged .xls files as format, never crashing', () => {
    const data = sheetJsWorkbook([report], 'biff8')
    // Cuts inside the header, the directory and the workbook stream (what follows it, the
    // mini stream of small streams, is not needed to read the workbook).
    const stream = oleStream(data, 'Workbook')
    const streamEnd = (stream.start + 1) * 512 + stream.size
    for (const cut of [600, 2048, Math.floor(streamEnd / 2), streamEnd - 1000])
      expect({ cut, code: refuse(data.subarray(0, cut)).code }).toEqual({ cut, code: 'format' })
    const badShift = Buffer.from(data)
    badShift.writeUInt16LE(15, 30)
    expect(refuse(badShift).code).toBe('format')
    // The workbook stream's first bytes overwritten: no BOF record.
    const noBof = Buffer.from(data)
    noBof.fill(0x41, (stream.start + 1) * 512, (stream.start + 1) * 512 + 64)
    expect(refuse(noBof).code).toBe('format')
  })
})
