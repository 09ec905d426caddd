import type { Clock } from './clock.ts'
import { readText, SLASH, TagScanner, tagsOf } from './xml-tokens.server.ts'

// The parts of an .xlsx around its worksheets: relationships (where the parts are), the
// workbook (sheet names, the date system), styles (which cells show dates) and the shared
// strings.

export interface Rel {
  readonly id: string
  readonly type: string
  /** Part name from the package root, without a leading slash. */
  readonly target: string
}

export function parseRels(xml: string | undefined, baseDir: string, clock: Clock): Rel[] {
  if (xml === undefined) return []
  const rels: Rel[] = []
  for (const tag of tagsOf(xml, clock)) {
    if (tag.isClose || tag.name !== 'Relationship' || tag.attrs.get('TargetMode') === 'External') continue
    const target = tag.attrs.get('Target')
    if (!target) continue
    rels.push({ id: tag.attrs.get('Id') ?? '', type: tag.attrs.get('Type') ?? '', target: resolvePartName(baseDir, target) })
  }
  return rels
}

function resolvePartName(baseDir: string, target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : baseDir + target
  const parts: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '..') parts.pop()
    else if (segment !== '.' && segment !== '') parts.push(segment)
  }
  return parts.join('/')
}

export interface WorkbookPart {
  readonly sheets: ReadonlyArray<{ readonly name: string; readonly relId: string }>
  readonly date1904: boolean
}

export function parseWorkbook(xml: string, clock: Clock): WorkbookPart {
  const sheets: Array<{ name: string; relId: string }> = []
  let date1904 = false
  for (const tag of tagsOf(xml, clock)) {
    if (tag.isClose) continue
    if (tag.name === 'workbookPr') {
      const value = tag.attrs.get('date1904')
      date1904 = value === '1' || value === 'true'
    } else if (tag.name === 'sheet') {
      const relId = [...tag.attrs].find(([key]) => key.endsWith(':id'))?.[1]
      const name = tag.attrs.get('name')
      if (relId && name !== undefined) sheets.push({ name, relId })
    }
  }
  return { sheets, date1904 }
}

/** Built-in number formats that show a date or time (ECMA-376 18.8.30). */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47])

/** Whether a format code shows a date: d, m or y outside quoted text, brackets and escapes. */
export function isDateFormatCode(code: string): boolean {
  // Excel keeps codes under 256 characters; a longer one is not a date format worth a scan.
  if (code.length > 1024) return false
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '')
  return /[dmy]/i.test(bare)
}

/** Per cellXfs index, 1 when the style shows numbers as dates. */
export function parseDateStyles(xml: string, clock: Clock): Uint8Array {
  const customFormats = new Map<number, string>()
  const xfFormats: number[] = []
  let inCellXfs = false
  for (const tag of tagsOf(xml, clock)) {
    if (tag.name === 'cellXfs') inCellXfs = !tag.isClose
    else if (tag.isClose) continue
    else if (tag.name === 'numFmt') {
      const id = Number(tag.attrs.get('numFmtId'))
      if (Number.isInteger(id)) customFormats.set(id, tag.attrs.get('formatCode') ?? '')
    } else if (tag.name === 'xf' && inCellXfs) {
      xfFormats.push(Number(tag.attrs.get('numFmtId') ?? 0))
    }
  }
  const dates = new Uint8Array(xfFormats.length)
  xfFormats.forEach((id, i) => {
    const custom = customFormats.get(id)
    dates[i] = (custom === undefined ? BUILTIN_DATE_FORMATS.has(id) : isDateFormatCode(custom)) ? 1 : 0
  })
  return dates
}

/** The shared strings table: each `<si>`'s text runs joined, phonetic readings left out. */
export function scanSharedStrings(b: Buffer, clock: Clock): string[] {
  const strings: string[] = []
  const tags = new TagScanner(b, clock)
  let current: string | null = null
  let inPhonetic = false
  while (tags.next()) {
    const { isClose } = tags
    const end = tags.tagEnd()
    const isEmpty = b[end - 1] === SLASH
    tags.pos = end + 1
    if (tags.is('si')) {
      if (isClose) {
        strings.push(current ?? '')
        current = null
      } else if (isEmpty) strings.push('')
      else current = ''
    } else if (tags.is('rPh')) {
      // Phonetic reading (East Asian), not part of the value.
      inPhonetic = !isClose && !isEmpty
    } else if (!isClose && !isEmpty && current !== null && !inPhonetic && tags.is('t')) {
      const { text, end: textEnd } = readText(b, tags.pos)
      current += text
      tags.pos = textEnd
    }
  }
  return strings
}
