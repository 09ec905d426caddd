// The bad-file corpus of issue #5: files a teacher's client might send to an upload endpoint,
// each with the status and message it must get. The upload endpoints' test sends every one; the
// upload-memory test measures the server process's peak memory while it reads them.
import { buildOle, buildWorkbook, buildZip, deflateStream, MAIN_NS, worksheetXml, zeroBomb } from './workbooks.ts'

export const INVALID = 'Invalid file format. Please download the sample file and modify it.'
const billionLaughs =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
  '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'

function millionRows(): Uint8Array {
  const chunk = 16_384
  const pieces = function* () {
    yield `${worksheetXml('').split('<sheetData>')[0]}<sheetData>`
    for (let start = 1; start <= 1_048_576; start += chunk) {
      let s = ''
      for (let r = start; r < start + chunk; r++) s += `<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`
      yield s
    }
    yield '</sheetData></worksheet>'
  }
  return buildWorkbook({ sheets: [{ name: 'S', deflated: deflateStream(pieces(), 1) }] })
}

const good = buildWorkbook({ sheets: [{ name: 'S', xml: `<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row>` }] })
const bomb = zeroBomb(300)

export const badWorkbooks: Array<{ name: string; file: () => Uint8Array; status: number; message: string | RegExp }> = [
  { name: 'not a zip (plain text)', file: () => new TextEncoder().encode('just some text'), status: 422, message: INVALID },
  {
    name: 'a csv renamed .xlsx',
    file: () => new TextEncoder().encode('اسم الطالب,التاريخ,الحالة\nأحمد,2025-09-07,حاضر\n'),
    status: 422,
    message: INVALID,
  },
  {
    name: 'a pdf renamed .xlsx',
    file: () => new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF'),
    status: 422,
    message: INVALID,
  },
  { name: 'an .xls renamed .xlsx', file: () => buildOle(['Workbook']), status: 422, message: INVALID },
  { name: 'an encrypted workbook', file: () => buildOle(['EncryptionInfo', 'EncryptedPackage']), status: 422, message: INVALID },
  { name: 'a truncated workbook', file: () => good.subarray(0, Math.floor(good.length / 2)), status: 422, message: INVALID },
  {
    name: 'an .ods renamed .xlsx',
    file: () =>
      buildZip([
        { name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet', method: 0 },
        { name: 'content.xml', data: '<office:document-content/>' },
      ]),
    status: 422,
    message: INVALID,
  },
  {
    name: 'a zip bomb (honest directory)',
    file: () => buildWorkbook({ sheets: [{ name: 'S', deflated: { bytes: bomb.bytes, size: bomb.size, crc: 0 } }] }),
    status: 413,
    message: /^The workbook holds more than \d+ MB of data once unpacked/,
  },
  {
    name: 'a zip bomb behind a lying directory',
    file: () => buildWorkbook({ sheets: [{ name: 'S', deflated: { bytes: bomb.bytes, size: 1000, crc: 0 } }] }),
    status: 413,
    message: /^The workbook holds more than \d+ MB of data once unpacked/,
  },
  {
    name: 'an XML entity bomb',
    file: () =>
      buildWorkbook({
        sheets: [
          {
            name: 'S',
            xml: `${billionLaughs}<worksheet xmlns="${MAIN_NS}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol3;</t></is></c></row></sheetData></worksheet>`,
          },
        ],
      }),
    status: 422,
    message: INVALID,
  },
  { name: 'a sheet with 1,048,576 rows', file: millionRows, status: 413, message: /^The sheet has more than 500,000 rows/ },
  { name: 'a workbook whose sheet has no header row', file: () => good, status: 422, message: /lacks the columns/ },
]
