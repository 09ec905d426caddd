import { XlsxError } from '#app/platform/xlsx/types.ts'
import type { Clock } from './clock.ts'
import type { SheetGrid } from './grid.ts'
import { createSheetScanner, lastRowEnd, type ScanBudget, type ScannedSheet } from './sheet-scanner.server.ts'
import { parseDateStyles, parseRels, parseWorkbook, scanSharedStrings } from './workbook-parts.server.ts'
import { decodeXmlBytes, refuseDtd } from './xml-tokens.server.ts'
import { inflateEntry, inflateEntryChunks, openZip, type ZipEntry } from './zip.server.ts'

// An .xlsx opened for reading: its zip directory checked, its workbook, styles and shared
// strings read; the worksheets scanned one at a time on request, so reading one sheet costs
// one sheet.

export interface XlsxBook {
  /** Worksheets in workbook order; chart, dialog and macro sheets have no cells and are left out. */
  readonly sheets: ReadonlyArray<{ readonly name: string }>
  /** Scans worksheet `index` (of `sheets`), counting its rows and merges against the shared budget. */
  readSheet(index: number, budget: ScanBudget): ScannedSheet
}

/** The date styles and shared strings are read once, and only when a sheet is: a refusal before that costs nothing. */
export function openXlsx(buf: Buffer, maxUncompressedBytes: number, clock: Clock, maxSheets = Number.POSITIVE_INFINITY): XlsxBook {
  const zip = openZip(buf, maxUncompressedBytes)
  const part = (path: string) => zip.get(path.toLowerCase())
  const inflate = (entry: ZipEntry) => {
    const out = inflateEntry(buf, entry)
    clock.check()
    refuseDtd(out)
    return out
  }
  const xmlPart = (path: string): string | undefined => {
    const entry = part(path)
    return entry ? decodeXmlBytes(inflate(entry)) : undefined
  }

  // The package's own relationships name the workbook part; Excel always puts it at xl/workbook.xml.
  const rootRels = parseRels(xmlPart('_rels/.rels'), '', clock)
  const officeDocument = rootRels.find((r) => r.type.endsWith('/officeDocument') && part(r.target))
  const workbookPath = officeDocument?.target ?? 'xl/workbook.xml'
  const workbookXml = xmlPart(workbookPath)
  if (workbookXml === undefined) throw new XlsxError('format', 'no xl/workbook.xml: not an Office Open XML workbook')
  const workbookDir = workbookPath.slice(0, workbookPath.lastIndexOf('/') + 1)
  const relsPath = `${workbookDir}_rels/${workbookPath.slice(workbookDir.length)}.rels`
  const rels = parseRels(xmlPart(relsPath), workbookDir, clock)
  const workbook = parseWorkbook(workbookXml, clock)

  const relById = new Map(rels.map((r) => [r.id, r]))
  const sheets = workbook.sheets.flatMap((s) => {
    const rel = relById.get(s.relId)
    if (!rel || /\/(chartsheet|dialogsheet|xlMacrosheet|xlIntlMacrosheet)$/.test(rel.type)) return []
    const entry = part(rel.target)
    return entry ? [{ name: s.name, entry }] : []
  })
  if (sheets.length === 0) throw new XlsxError('format', 'the workbook has no worksheet')
  if (sheets.length > maxSheets) throw new XlsxError('too_many_sheets', `more than ${maxSheets} worksheets`)

  const stylesPath = rels.find((r) => r.type.endsWith('/styles'))?.target ?? `${workbookDir}styles.xml`
  const stringsPath = rels.find((r) => r.type.endsWith('/sharedStrings'))?.target ?? `${workbookDir}sharedStrings.xml`
  let shared: { dateStyles: Uint8Array; sharedStrings: string[] } | undefined
  const sharedParts = () => {
    if (shared) return shared
    const stylesXml = xmlPart(stylesPath)
    const stringsEntry = part(stringsPath)
    shared = {
      dateStyles: stylesXml === undefined ? new Uint8Array(0) : parseDateStyles(stylesXml, clock),
      sharedStrings: stringsEntry ? scanSharedStrings(inflate(stringsEntry), clock) : [],
    }
    return shared
  }

  return {
    sheets: sheets.map((s) => ({ name: s.name })),
    readSheet(index, budget) {
      const sheet = sheets[index]
      if (!sheet) throw new RangeError(`no worksheet ${index}`)
      const { dateStyles, sharedStrings } = sharedParts()
      const scanner = createSheetScanner({ sharedStrings, dateStyles, date1904: workbook.date1904, budget, clock })
      // The worksheet's XML as it is inflated, cut after its last complete row each time: the
      // upload's worker holds a piece of it, never all of it (a 10 MB file unpacks to 120 MB).
      let pending: Buffer[] = []
      const scan = (piece: Buffer) => {
        refuseDtd(piece)
        clock.check()
        scanner.feed(piece)
      }
      inflateEntryChunks(buf, sheet.entry, (chunk) => {
        const cut = lastRowEnd(chunk)
        if (cut < 0) {
          pending.push(chunk)
          return
        }
        // A copy: the inflater reuses its output's memory for the next chunk.
        const rest = Buffer.from(chunk.subarray(cut))
        scan(pending.length === 0 ? chunk.subarray(0, cut) : Buffer.concat([...pending, chunk.subarray(0, cut)]))
        pending = rest.length > 0 ? [rest] : []
      })
      scan(pending.length === 1 ? pending[0]! : Buffer.concat(pending))
      return scanner.end()
    },
  }
}

/** Every worksheet of the book, rows and merges counted over the whole file. */
export function readXlsxSheets(book: XlsxBook, maxRows: number): SheetGrid[] {
  const budget: ScanBudget = { rowsRead: 0, maxRows, merges: 0 }
  return book.sheets.map((sheet, index) => {
    const { rows, merges } = book.readSheet(index, budget)
    return { name: sheet.name, rows, merges }
  })
}
