import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import * as XLSX from '@e965/xlsx'
import { describe, expect, it } from 'vitest'
import { XlsxError, type ReadSheetOptions, type XlsxErrorCode } from '#app/platform/xlsx/types.ts'
import {
  buildOle,
  buildWorkbook,
  buildZip,
  deflateStream,
  MAIN_NS,
  sharedStringsXml,
  worksheetXml,
  zeroBomb,
} from '#tests/support/workbooks.ts'
import type { MergedRange, ReadWorkbookOptions } from './grid.ts'
import { decodeCsv } from './read-csv.server.ts'
import { isDateFormatCode, readSheet, readWorkbook, XLSX_READ_LIMITS } from './read-workbook.server.ts'

// The shared fixtures, copied beside the features that own them.
const featuresDir = path.resolve(import.meta.dirname, '../../features')

const MB = 1 << 20
const options: ReadSheetOptions = {
  maxUncompressedBytes: 200 * MB,
  maxRows: 500_000,
  timeBudgetMs: 10_000,
  preferredSheets: ['الغياب', 'Absence'],
}

function codeOf(run: () => unknown): XlsxErrorCode | 'no error' {
  try {
    run()
  } catch (error) {
    if (error instanceof XlsxError) return error.code
    throw error
  }
  return 'no error'
}

/** Runs a refusal and reports its code, its time and how much the process grew meanwhile. */
function refuse(data: Uint8Array, opts: Partial<ReadSheetOptions> = {}) {
  const rss = process.memoryUsage().rss
  const t0 = performance.now()
  const code = codeOf(() => readSheet(data, { ...options, ...opts }))
  return { code, ms: performance.now() - t0, rssGrowthMb: (process.memoryUsage().rss - rss) / MB }
}

const sheetOf = (rows: string, strings: readonly string[] = []) =>
  buildWorkbook({ sheets: [{ name: 'Sheet1', xml: rows }], sharedStrings: strings })
const read = (data: Uint8Array, opts: Partial<ReadSheetOptions> = {}) => readSheet(data, { ...options, ...opts })
const cellsOf = (data: Uint8Array) => read(data).rows.map((r) => r.cells)

const billionLaughs =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
  '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>'

describe('readSheet refuses what is not a readable workbook', () => {
  const good = sheetOf('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', ['اسم الطالب'])

  it('refuses files that are not zips: text, csv, pdf, empty', () => {
    expect(refuse(Buffer.from('just some text')).code).toBe('format')
    expect(refuse(Buffer.from('اسم الطالب,الصف\nمحمد,الأول\n', 'utf8')).code).toBe('format')
    expect(refuse(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj <<>> endobj\n')).code).toBe('format')
    expect(refuse(new Uint8Array(0)).code).toBe('format')
  })

  it('refuses truncated zips', () => {
    expect(refuse(good.subarray(0, Math.floor(good.length / 2))).code).toBe('format')
    expect(refuse(good.subarray(0, good.length - 10)).code).toBe('format')
    // The directory survives, the sheet's bytes (the last entry, just before it) do not.
    const cut = Buffer.from(good)
    const directory = cut.readUInt32LE(cut.length - 22 + 16)
    cut.fill(0xff, directory - 12, directory)
    expect(refuse(cut).code).toBe('format')
  })

  it('refuses an .xls renamed (OLE compound file) as format, an encrypted .xlsx as encrypted', () => {
    expect(refuse(buildOle(['Workbook', '\u0005SummaryInformation'])).code).toBe('format')
    expect(refuse(buildOle(['EncryptionInfo', 'EncryptedPackage', '\u0006DataSpaces'])).code).toBe('encrypted')
    // A damaged directory still shows its encryption stream names.
    const damaged = Buffer.from(buildOle(['EncryptionInfo', 'EncryptedPackage']))
    damaged.writeUInt32LE(0x7fffffff, 48)
    expect(refuse(damaged).code).toBe('encrypted')
  })

  it('refuses an .ods renamed, a .docx renamed and a workbook without sheets', () => {
    const ods = buildZip([
      { name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet', method: 0 },
      { name: 'content.xml', data: '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>' },
      { name: 'META-INF/manifest.xml', data: '<manifest:manifest/>' },
    ])
    expect(refuse(ods).code).toBe('format')
    expect(refuse(buildZip([{ name: 'word/document.xml', data: '<w:document/>' }])).code).toBe('format')
    expect(refuse(buildWorkbook({ sheets: [] })).code).toBe('format')
    expect(refuse(buildZip([])).code).toBe('format')
  })

  it('refuses compression methods other than stored and deflate', () => {
    const data = buildWorkbook({
      sheets: [{ name: 'S', xml: '' }],
      extraEntries: [{ name: 'xl/workbook.xml', data: '<workbook/>', method: 12 }],
    })
    expect(refuse(data).code).toBe('format')
  })

  it('refuses a zip bomb declared honestly before inflating anything', () => {
    const bomb = zeroBomb(3000) // 3 MB deflating to 3 GB
    const data = buildWorkbook({ sheets: [{ name: 'S', deflated: { bytes: bomb.bytes, size: bomb.size, crc: 0 } }] })
    expect(data.length).toBeLessThan(4 * MB)
    const result = refuse(data)
    expect(result.code).toBe('too_large')
    expect(result.rssGrowthMb).toBeLessThan(32)
  })

  it('refuses many honest entries whose total is over the limit, and too many entries', () => {
    const bomb = zeroBomb(150)
    const entries = [0, 1].map((i) => ({ name: `xl/media/image${i}.bin`, deflated: { bytes: bomb.bytes, size: bomb.size, crc: 0 } }))
    expect(refuse(buildWorkbook({ sheets: [{ name: 'S', xml: '' }], extraEntries: entries })).code).toBe('too_large')
    const many = Array.from({ length: XLSX_READ_LIMITS.maxEntries + 1 }, (_v, i) => ({ name: `xl/x${i}.xml`, data: '', method: 0 }))
    expect(refuse(buildWorkbook({ sheets: [{ name: 'S', xml: '' }], extraEntries: many })).code).toBe('too_large')
  })

  it('refuses an entry that compresses too well even under the total limit', () => {
    const bomb = zeroBomb(100) // 100 MB in 100 KB: 1000:1
    const result = refuse(buildWorkbook({ sheets: [{ name: 'S', deflated: { bytes: bomb.bytes, size: bomb.size, crc: 0 } }] }))
    expect(result.code).toBe('too_large')
    expect(result.rssGrowthMb).toBeLessThan(32)
  })

  it('stops a zip bomb behind a lying directory at the declared size', () => {
    const bomb = zeroBomb(3000)
    for (const declared of [1000, 5 * MB]) {
      const data = buildWorkbook({ sheets: [{ name: 'S', deflated: { bytes: bomb.bytes, size: declared, crc: 0 } }] })
      const result = refuse(data)
      expect(result.code).toBe('too_large')
      expect(result.rssGrowthMb).toBeLessThan(48)
    }
    // The shared strings can lie as well.
    const strings = buildWorkbook({
      sheets: [{ name: 'S', xml: '' }],
      extraEntries: [{ name: 'xl/sharedStrings.xml', deflated: { bytes: bomb.bytes, size: 2000, crc: 0 } }],
    })
    expect(refuse(strings).code).toBe('too_large')
  })

  it('refuses an entry shorter than its directory says', () => {
    const xml = worksheetXml('<row r="1"><c r="A1"><v>1</v></c></row>')
    const data = buildWorkbook({
      sheets: [{ name: 'S', xml: '' }],
      extraEntries: [{ name: 'xl/worksheets/sheet1.xml', data: xml, declaredSize: xml.length + 100 }],
    })
    expect(refuse(data).code).toBe('format')
  })

  it('refuses zip64 archives', () => {
    const data = Buffer.from(good)
    data.writeUInt16LE(0xffff, data.length - 22 + 10)
    expect(refuse(data).code).toBe('too_large')
  })

  it('refuses a billion laughs in the shared strings, the sheet or the workbook, without expanding it', () => {
    const inStrings = buildWorkbook({
      sheets: [{ name: 'S', xml: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' }],
      sharedStrings: `${billionLaughs}<sst xmlns="${MAIN_NS}"><si><t>&lol9;</t></si></sst>`,
    })
    const inSheet = buildWorkbook({
      sheets: [
        {
          name: 'S',
          xml: `${billionLaughs}<worksheet xmlns="${MAIN_NS}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>`,
        },
      ],
    })
    const inWorkbook = buildWorkbook({
      sheets: [{ name: 'S', xml: '' }],
      extraEntries: [{ name: 'xl/workbook.xml', data: `${billionLaughs}<workbook/>` }],
    })
    const external = buildWorkbook({
      sheets: [
        {
          name: 'S',
          xml: `<?xml version="1.0"?><!DOCTYPE x SYSTEM "file:///etc/passwd"><worksheet xmlns="${MAIN_NS}"><sheetData/></worksheet>`,
        },
      ],
    })
    for (const data of [inStrings, inSheet, inWorkbook, external]) {
      const result = refuse(data)
      expect(result.code).toBe('format')
    }
  })

  it('refuses 1,048,576 rows of data fast once maxRows is passed, with memory bounded by the sheet', () => {
    const chunk = 16_384
    const pieces = function* () {
      yield worksheetXml('').split('<sheetData>')[0] + '<sheetData>'
      for (let start = 1; start <= 1_048_576; start += chunk) {
        let s = ''
        for (let r = start; r < start + chunk; r++) s += `<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`
        yield s
      }
      yield '</sheetData></worksheet>'
    }
    const deflated = deflateStream(pieces(), 1)
    const data = buildWorkbook({ sheets: [{ name: 'S', deflated }] })
    expect(data.length).toBeLessThan(10 * MB)
    const result = refuse(data)
    expect(result.code).toBe('too_many_rows')
    expect(result.rssGrowthMb).toBeLessThan((4 * deflated.size) / MB)
  })

  it('reads a sheet of 1,048,576 empty rows (whole-column validation) fast, keeping the rows with data', () => {
    const chunk = 16_384
    const pieces = function* () {
      yield worksheetXml('').split('<sheetData>')[0] + '<dimension ref="A1:I1048576"/><sheetData>'
      yield '<row r="1" spans="1:9"><c r="A1" t="inlineStr"><is><t>اسم الطالب</t></is></c></row>'
      for (let start = 2; start <= 1_048_576; start += chunk) {
        let s = ''
        for (let r = start; r < Math.min(start + chunk, 1_048_577); r++)
          s += `<row r="${r}" spans="1:9" s="1" customFormat="1"><c r="A${r}" s="1"/></row>`
        yield s
      }
      yield '</sheetData><dataValidations count="1"><dataValidation type="list" sqref="I2:I1048576"><formula1>"حاضر,غائب"</formula1></dataValidation></dataValidations></worksheet>'
    }
    const data = buildWorkbook({ sheets: [{ name: 'S', deflated: deflateStream(pieces(), 1) }] })
    const result = read(data, { maxRows: 10 })
    expect(result.rows).toEqual([{ row: 1, cells: ['اسم الطالب'] }])
  })

  it('refuses cells far to the right that would need huge rows', () => {
    let rows = ''
    for (let r = 1; r <= 2000; r++) rows += `<row r="${r}"><c r="XFD${r}"><v>1</v></c></row>`
    expect(refuse(sheetOf(rows)).code).toBe('too_large')
    expect(refuse(sheetOf('<row r="1"><c r="XFE1"><v>1</v></c></row>')).code).toBe('format')
  })

  it('stays linear on hostile small parts (no backtracking over a styles or workbook part)', () => {
    const styles = `<styleSheet xmlns="${MAIN_NS}"><numFmts count="1"><numFmt numFmtId="164" formatCode="${'['.repeat(200_000)}"/></numFmts><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs></styleSheet>`
    const unclosed = `<workbook xmlns="${MAIN_NS}"><sheets><sheet name="S" r:id="rId1 ${'<a '.repeat(200_000)}`
    expect(
      cellsOf(
        buildWorkbook({
          sheets: [{ name: 'S', xml: '<row r="1"><c r="A1" s="1"><v>5</v></c></row>' }],
          extraEntries: [{ name: 'xl/styles.xml', data: styles }],
        }),
      ),
    ).toEqual([[5]])
    expect(
      refuse(buildWorkbook({ sheets: [{ name: 'S', xml: '' }], extraEntries: [{ name: 'xl/workbook.xml', data: unclosed }] })).code,
    ).toBe('format')
  })

  it('gives up when the time budget runs out', () => {
    let rows = ''
    for (let r = 1; r <= 50_000; r++) rows += `<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`
    const data = sheetOf(rows)
    expect(refuse(data, { timeBudgetMs: 0 }).code).toBe('timeout')
    expect(refuse(data, { timeBudgetMs: 10_000 }).code).toBe('no error')
  })
})

describe('readSheet reads values as Excel shows them', () => {
  it('reads shared strings: rich text runs, phonetic runs left out, entities, xml:space, Excel escapes', () => {
    const sst =
      `<sst xmlns="${MAIN_NS}"><si><r><rPr><b/></rPr><t>محمد </t></r><r><t xml:space="preserve"> أحمد</t></r></si>` +
      `<si><t>A &amp; B &lt;c&gt; &quot;d&quot; &apos;e&apos; &#1605;&#x62D;</t></si>` +
      `<si><t xml:space="preserve">  spaced  </t></si><si><t>line_x000D_break</t></si>` +
      `<si><t>漢字</t><rPh sb="0" eb="2"><t>カンジ</t></rPh></si><si/></sst>`
    const data = buildWorkbook({
      sheets: [
        {
          name: 'S',
          xml: '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c><c r="F1" t="s"><v>5</v></c><c r="G1" t="s"><v>99</v></c></row>',
        },
      ],
      sharedStrings: sst,
    })
    expect(cellsOf(data)).toEqual([['محمد  أحمد', `A & B <c> "d" 'e' مح`, '  spaced  ', 'line\rbreak', '漢字', '']])
  })

  it('reads inline strings, formula strings, booleans, errors and numbers', () => {
    const rows =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>نص مباشر</t></is></c><c r="B1" t="inlineStr"><is><r><t>a</t></r><r><t>b</t></r></is></c>' +
      '<c r="C1" t="str"><f>A1&amp;"!"</f><v>نص مباشر!</v></c><c r="D1" t="b"><v>1</v></c><c r="E1" t="b"><v>0</v></c>' +
      '<c r="F1" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="G1"><v>-12.5</v></c><c r="H1" t="n"><v>1.5E-3</v></c><c r="I1"><f>1+1</f><v>2</v></c>' +
      '<c r="J1"><v>0.1</v></c><c r="K1"><v>123456789012345678</v></c></row>'
    expect(cellsOf(sheetOf(rows))).toEqual([
      ['نص مباشر', 'ab', 'نص مباشر!', true, false, null, -12.5, 0.0015, 2, 0.1, 1.2345678901234568e17],
    ])
  })

  it('marks numbers with built-in and custom date formats as dates, others stay numbers', () => {
    const data = buildWorkbook({
      sheets: [
        {
          name: 'S',
          xml:
            '<row r="1"><c r="A1" s="1"><v>45893</v></c><c r="B1" s="2"><v>45893.5</v></c><c r="C1" s="3"><v>45894</v></c>' +
            '<c r="D1" s="4"><v>45895</v></c><c r="E1" s="5"><v>12.5</v></c><c r="F1" s="6"><v>7</v></c><c r="G1" s="7"><v>8</v></c>' +
            '<c r="H1"><v>45893</v></c><c r="I1" s="99"><v>9</v></c><c r="J1" t="d"><v>2025-08-24T00:00:00</v></c></row>',
        },
      ],
      numFmts: { 164: 'yyyy/mm/dd', 165: '[$-1060000]B2dd/mm/yyyy', 166: '0.00 "days"', 167: '[Red]#,##0', 168: '#,##0 "ريال"' },
      cellXfs: [0, 14, 22, 164, 165, 166, 167, 168],
    })
    expect(cellsOf(data)).toEqual([
      [
        { kind: 'date', serial: 45893 },
        { kind: 'date', serial: 45893.5 },
        { kind: 'date', serial: 45894 },
        { kind: 'date', serial: 45895 },
        12.5,
        7,
        8,
        45893,
        9,
        { kind: 'date', serial: 45893 },
      ],
    ])
    expect(isDateFormatCode('d/m/yyyy h:mm')).toBe(true)
    expect(isDateFormatCode('"Day" 0')).toBe(false)
    expect(isDateFormatCode('[h]:ss')).toBe(false)
    expect(isDateFormatCode('General')).toBe(false)
  })

  it('converts dates of the 1904 date system to the 1900 serial', () => {
    const data = buildWorkbook({ sheets: [{ name: 'S', xml: '<row r="1"><c r="A1" s="1"><v>44431</v></c></row>' }], date1904: true })
    expect(cellsOf(data)).toEqual([[{ kind: 'date', serial: 45893 }]])
  })

  it('takes positions from order when rows and cells have no r, and keeps gaps between columns', () => {
    const rows =
      '<row><c t="inlineStr"><is><t>a</t></is></c><c><v>1</v></c></row><row><c><v>2</v></c></row>' +
      '<row r="5"><c r="A5"><v>5</v></c><c r="C5"><v>7</v></c><c><v>8</v></c></row><row><c r="B6"><v>9</v></c></row>'
    expect(read(sheetOf(rows)).rows).toEqual([
      { row: 1, cells: ['a', 1] },
      { row: 2, cells: [2] },
      { row: 5, cells: [5, null, 7, 8] },
      { row: 6, cells: [null, 9] },
    ])
  })

  it('skips empty rows and keeps row numbers as Excel shows them', () => {
    const rows =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>العنوان</t></is></c></row><row r="2" spans="1:9"/><row r="3"><c r="A3" s="1"/><c r="B3" t="s"/></row>' +
      '<row r="4"><c r="A4" t="inlineStr"><is><t></t></is></c></row><row r="7"><c r="B7" t="inlineStr"><is><t>تحت</t></is></c><c r="C7" s="1"/></row>'
    expect(read(sheetOf(rows), { maxRows: 2 }).rows).toEqual([
      { row: 1, cells: ['العنوان'] },
      { row: 7, cells: [null, 'تحت'] },
    ])
    expect(codeOf(() => read(sheetOf(rows), { maxRows: 1 }))).toBe('too_many_rows')
  })

  it('keeps Arabic text and Arabic-Indic digits as text', () => {
    const data = sheetOf(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>٠٥٥١٢٣٤٥٦٧</t></is></c><c r="D1" t="str"><v>١٤٤٧/٠٣/٠١</v></c></row>',
      ['مُحمّد أحمد علي الغامدي', '١٢٣'],
    )
    expect(cellsOf(data)).toEqual([['مُحمّد أحمد علي الغامدي', '١٢٣', '٠٥٥١٢٣٤٥٦٧', '١٤٤٧/٠٣/٠١']])
  })

  it('chooses the first preferred sheet that exists, else the first sheet', () => {
    const data = buildWorkbook({
      sheets: [
        { name: 'ملخص', xml: '<row r="1"><c r="A1"><v>1</v></c></row>' },
        { name: 'Absence', xml: '<row r="1"><c r="A1"><v>2</v></c></row>' },
        { name: 'الغياب', xml: '<row r="1"><c r="A1"><v>3</v></c></row>' },
      ],
    })
    expect(read(data).sheetName).toBe('الغياب')
    expect(read(data, { preferredSheets: ['Absence', 'الغياب'] }).rows[0]!.cells).toEqual([2])
    expect(read(data, { preferredSheets: ['absence'] }).sheetName).toBe('Absence')
    expect(read(data, { preferredSheets: ['Grades'] })).toEqual({ sheetName: 'ملخص', rows: [{ row: 1, cells: [1] }] })
    expect(read(data, { preferredSheets: undefined }).sheetName).toBe('ملخص')
  })

  it('reads namespace-prefixed XML, stored entries, comments and CDATA', () => {
    const sheet =
      `<?xml version="1.0"?><x:worksheet xmlns:x="${MAIN_NS}"><!-- made by a script --><x:sheetData>` +
      `<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="inlineStr"><x:is><x:t><![CDATA[<b>&amp;</b>]]></x:t></x:is></x:c><x:c r="C1"><x:v><![CDATA[42]]></x:v></x:c></x:row>` +
      `</x:sheetData></x:worksheet>`
    const sst = `<x:sst xmlns:x="${MAIN_NS}"><x:si><x:t>مرحبا</x:t></x:si></x:sst>`
    const data = buildWorkbook({
      sheets: [{ name: 'S', xml: '' }],
      extraEntries: [
        { name: 'xl/worksheets/sheet1.xml', data: sheet, method: 0 },
        { name: 'xl/sharedStrings.xml', data: sst, method: 0 },
      ],
    })
    expect(cellsOf(data)).toEqual([['مرحبا', '<b>&amp;</b>', 42]])
  })

  it('reads the same values as SheetJS from the shared fixtures', () => {
    const roots = ['absence', 'grades'].map((f) => path.join(featuresDir, f, 'fixtures'))
    for (const root of roots) {
      for (const file of readdirSync(root).filter((f) => f.endsWith('.xlsx'))) {
        const data = readFileSync(path.join(root, file))
        const ours = read(data)
        const workbook = XLSX.read(data, { type: 'buffer' })
        const theirs = XLSX.utils.sheet_to_json<unknown[]>(workbook.Sheets[ours.sheetName]!, {
          header: 1,
          blankrows: false,
          raw: true,
          defval: null,
        })
        expect({ file, rows: ours.rows.length }).toEqual({ file, rows: theirs.length })
        ours.rows.forEach((row, i) => {
          const plain = row.cells.map((c) => (typeof c === 'object' && c !== null ? c.serial : c))
          expect({ file, row: row.row, cells: plain }).toEqual({ file, row: row.row, cells: theirs[i]!.slice(0, plain.length) })
        })
      }
    }
  })

  it('reads cells of the Arabic absence fixture that can be seen in Excel', () => {
    const { sheetName, rows } = read(readFileSync(path.join(featuresDir, 'absence/fixtures/small-ar.xlsx')))
    expect(sheetName).toBe('الغياب')
    const byRow = new Map(rows.map((r) => [r.row, r.cells]))
    expect(byRow.get(1)).toEqual(['تقرير الغياب'])
    expect(byRow.get(5)).toEqual(['اسم الطالب', 'رقم الهوية', 'الصف', 'الفصل', 'القسم', 'النظام الدراسي', 'التاريخ', 'اليوم', 'الحالة'])
    expect(byRow.get(6)).toEqual([
      'محمد سلطان أحمد الجهني',
      '1100720226',
      'الأول المتوسط',
      '1',
      'عام',
      'نهاري',
      { kind: 'date', serial: 45893 },
      'الأحد',
      '',
    ])
    expect(byRow.has(4)).toBe(false)
  })

  it('reads cells of the English grades fixture', () => {
    const { sheetName, rows } = read(readFileSync(path.join(featuresDir, 'grades/fixtures/english-two-subjects.xlsx')), {
      preferredSheets: ['الدرجات', 'Grades'],
    })
    expect(sheetName).toBe('Grades')
    expect(rows[3]).toEqual({ row: 5, cells: ['Student name', 'National ID', 'Grade', 'Class', 'Subject', 'Score', 'Max score'] })
    expect(rows[4]).toEqual({ row: 6, cells: ['عبدالعزيز خالد مشاري البلوي', '1100198728', 'الأول المتوسط', '1', 'Science', 34.5, 40] })
  })

  it('never returns more memory than the rows need: shared strings are shared', () => {
    const rows = Array.from({ length: 100 }, (_v, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>0</v></c></row>`).join('')
    const result = read(sheetOf(rows, ['حاضر']))
    expect(result.rows).toHaveLength(100)
    expect(new Set(result.rows.map((r) => r.cells[0])).size).toBe(1)
  })
})

describe('sharedStringsXml (test helper)', () => {
  it('round-trips through the reader', () => {
    const strings = [' leading', 'a&b', '<x>']
    const data = buildWorkbook({
      sheets: [{ name: 'S', xml: '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>' }],
      sharedStrings: sharedStringsXml(strings),
    })
    expect(cellsOf(data)).toEqual([strings])
  })
})

describe('readWorkbook reads every fixture as SheetJS does', () => {
  const workbookOptions: ReadWorkbookOptions = { maxUncompressedBytes: 200 * MB, maxRows: 500_040, maxSheets: 1000, timeBudgetMs: 10_000 }
  const fixtureDirs = [
    path.join(featuresDir, 'absence/fixtures'),
    path.join(featuresDir, 'grades/fixtures'),
    path.resolve(import.meta.dirname, '../../../tests/fixtures/noor'),
  ]
  const fixtures = fixtureDirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => /\.(xlsx|xls|csv)$/.test(f))
      .map((f) => path.join(dir, f)),
  )
  type Plain = string | number | boolean | null

  /** SheetJS's reading (the oracle): cells by row as text, numbers and booleans, dates as their serial. */
  function oracle(file: string) {
    const data = readFileSync(file)
    const workbook = file.endsWith('.csv')
      ? XLSX.read(decodeCsv(data), { type: 'string', raw: true, dense: true })
      : XLSX.read(data, { type: 'buffer', dense: true, cellDates: false })
    return workbook.SheetNames.map((name) => {
      const sheet = workbook.Sheets[name]! as XLSX.WorkSheet & { '!data'?: Array<Array<XLSX.CellObject | undefined> | undefined> }
      const rows: Array<{ row: number; cells: Plain[] }> = []
      sheet['!data']?.forEach((cells, r) => {
        const plain: Plain[] = []
        cells?.forEach((cell, c) => {
          if (!cell || cell.t === 'z' || cell.t === 'e' || cell.v === undefined) return
          while (plain.length < c) plain.push(null)
          plain.push(cell.v as Plain)
        })
        if (plain.some((v) => v !== null && v !== '')) rows.push({ row: r + 1, cells: plain })
      })
      const merges = (sheet['!merges'] ?? []).map((m) => ({
        firstRow: m.s.r + 1,
        lastRow: m.e.r + 1,
        firstColumn: m.s.c,
        lastColumn: m.e.c,
      }))
      return { name, rows, merges }
    })
  }

  it('finds the fixtures (old layouts, and Noor’s .xlsx, .xls and .csv)', () => {
    expect(fixtures.map((f) => path.extname(f)).toSorted()).toEqual(expect.arrayContaining(['.csv', '.xls', '.xlsx']))
    expect(fixtures.length).toBeGreaterThanOrEqual(10)
  })

  it.each(fixtures.map((f) => [path.relative(featuresDir, f), f]))('%s: the same sheets, cells and merged ranges', (_name, file) => {
    const ours = readWorkbook(readFileSync(file), workbookOptions)
    const theirs = oracle(file)
    expect(ours.container).toBe(path.extname(file).slice(1))
    expect(ours.sheets.map((s) => s.name)).toEqual(ours.container === 'csv' ? [null] : theirs.map((s) => s.name))
    ours.sheets.forEach((sheet, i) => {
      const plain = sheet.rows.map((r) => ({ row: r.row, cells: r.cells.map((c) => (typeof c === 'object' && c !== null ? c.serial : c)) }))
      expect(plain).toEqual(theirs[i]!.rows)
      expect(sheet.merges.toSorted(byPosition)).toEqual(theirs[i]!.merges.toSorted(byPosition))
    })
  })

  it('marks date cells of the fixtures as dates', () => {
    const grids = fixtures
      .filter((f) => f.endsWith('.xlsx') || f.endsWith('.xls'))
      .map((f) => readWorkbook(readFileSync(f), workbookOptions))
    const dates = grids.flatMap((g) =>
      g.sheets.flatMap((s) => s.rows.flatMap((r) => r.cells.filter((c) => typeof c === 'object' && c !== null))),
    )
    expect(dates.length).toBeGreaterThan(0)
  })
})

describe('readWorkbook refuses what it cannot read', () => {
  const workbookOptions: ReadWorkbookOptions = { maxUncompressedBytes: 200 * MB, maxRows: 500_040, maxSheets: 1000, timeBudgetMs: 10_000 }
  const codeOfRead = (data: Uint8Array, opts: Partial<ReadWorkbookOptions> = {}) =>
    codeOf(() => readWorkbook(data, { ...workbookOptions, ...opts }))

  it('refuses a workbook with 2,000 sheets before reading any, and reads 1,000', () => {
    const sheets = (count: number) =>
      Array.from({ length: count }, (_v, i) => ({
        name: `طالب ${i + 1}`,
        xml: `<row r="1"><c r="A1" t="inlineStr"><is><t>اسم الطالب: ${i}</t></is></c></row>`,
      }))
    const t0 = performance.now()
    expect(codeOfRead(buildWorkbook({ sheets: sheets(2000) }))).toBe('too_many_sheets')
    expect(performance.now() - t0).toBeLessThan(5000)
    const grid = readWorkbook(buildWorkbook({ sheets: sheets(1000) }), workbookOptions)
    expect(grid.sheets).toHaveLength(1000)
    expect(grid.sheets[999]).toEqual({ name: 'طالب 1000', rows: [{ row: 1, cells: ['اسم الطالب: 999'] }], merges: [] })
  })

  it('counts rows over all sheets of an .xlsx', () => {
    const rows = '<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>'
    const data = buildWorkbook({
      sheets: [
        { name: 'A', xml: rows },
        { name: 'B', xml: rows },
      ],
    })
    expect(codeOfRead(data, { maxRows: 4 })).toBe('no error')
    expect(codeOfRead(data, { maxRows: 3 })).toBe('too_many_rows')
  })

  it('reads merged ranges after the sheet data, and leaves chart sheets out', () => {
    const sheet = worksheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>الاسم</t></is></c></row>').replace(
      '</worksheet>',
      '<mergeCells count="3"><mergeCell ref="A1:C2"/><mergeCell ref="XFD1048575:XFD1048576"/><mergeCell ref="bad"/></mergeCells></worksheet>',
    )
    const data = buildWorkbook({ sheets: [{ name: 'S', xml: sheet }] })
    expect(readWorkbook(data, workbookOptions).sheets[0]!.merges).toEqual([
      { firstRow: 1, lastRow: 2, firstColumn: 0, lastColumn: 2 },
      { firstRow: 1_048_575, lastRow: 1_048_576, firstColumn: 16_383, lastColumn: 16_383 },
    ])
  })

  it('decides by content, never by name: text is CSV, a zip is .xlsx, anything else is refused', () => {
    expect(readWorkbook(Buffer.from('اسم الطالب,الصف\nمحمد,الأول\n'), workbookOptions).container).toBe('csv')
    expect(codeOfRead(Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj <<>> endobj\n\u0000'))).toBe('format')
    expect(codeOfRead(buildZip([{ name: 'word/document.xml', data: '<w:document/>' }]))).toBe('format')
  })
})

function byPosition(a: MergedRange, b: MergedRange) {
  return a.firstRow - b.firstRow || a.firstColumn - b.firstColumn
}
