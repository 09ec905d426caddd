import { XlsxError } from '#app/platform/xlsx/types.ts'
import { CLOCK_EVERY, type Clock } from './clock.ts'

// The XML both scanners (shared strings, worksheets) and the small parts (workbook,
// relationships, styles) are read with: a byte-level tag scanner over the inflated buffer for
// the large parts, a string tokenizer with decoded attributes for the small ones. No DOM, no
// DTD, nothing an attacker can make quadratic.

export const LT = 0x3c // <
export const GT = 0x3e // >
export const SLASH = 0x2f // /
export const BANG = 0x21 // !
export const QMARK = 0x3f // ?
export const COLON = 0x3a // :
export const EQ = 0x3d // =
export const DQUOTE = 0x22 // "
export const SQUOTE = 0x27 // '
export const HYPHEN = 0x2d // -
export const SPACE = 0x20

/**
 * No DOCTYPE, no ENTITY, nothing `<!` but comments and CDATA: without a DTD no entity can be
 * declared, so none can expand (billion laughs, external entities).
 */
export function refuseDtd(bytes: Buffer) {
  // `!` is rare in a sheet, and a one-byte search runs at memchr speed.
  for (let i = bytes.indexOf(BANG); i !== -1; i = bytes.indexOf(BANG, i + 1)) {
    if (bytes[i - 1] !== LT) continue
    const isComment = bytes[i + 1] === HYPHEN && bytes[i + 2] === HYPHEN
    if (!isComment && bytes.toString('latin1', i + 1, i + 8) !== '[CDATA[')
      throw new XlsxError('format', 'XML with a DTD or entity declaration')
  }
}

export function decodeXmlBytes(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.toString('utf16le', 2)
  if (bytes[0] === 0xfe && bytes[1] === 0xff) throw new XlsxError('format', 'UTF-16BE XML')
  return bytes.toString('utf8')
}

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const OOXML_ESCAPE = /_x([0-9A-Fa-f]{4})_/g

function codePoint(cp: number): string {
  return cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : '\uFFFD'
}

/** The five XML entities and character references, then Excel's `_xHHHH_` escapes. */
export function decodeXmlText(text: string): string {
  let s = text
  if (s.includes('&'))
    s = s.replace(ENTITY, (_m, dec?: string, hex?: string, name?: string) =>
      name ? NAMED[name]! : codePoint(dec ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16)),
    )
  if (s.includes('_x')) s = s.replace(OOXML_ESCAPE, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  return s
}

/**
 * The text of a text node starting at `start`, up to the next tag, with CDATA sections and
 * comments inside it handled; `end` is the `<` of the tag that ends it.
 */
export function readText(b: Buffer, start: number): { text: string; end: number } {
  let i = b.indexOf(LT, start)
  if (i === -1) throw new XlsxError('format', 'truncated XML')
  if (b[i + 1] !== BANG) return { text: decodeXmlText(b.toString('utf8', start, i)), end: i }
  // Rare: a CDATA section or a comment in the text (Excel writes neither).
  let text = decodeXmlText(b.toString('utf8', start, i))
  for (;;) {
    if (b[i + 1] !== BANG) break
    if (b[i + 2] === HYPHEN) {
      const close = b.indexOf('-->', i)
      if (close === -1) throw new XlsxError('format', 'truncated XML')
      i = close + 3
    } else {
      const close = b.indexOf(']]>', i)
      if (close === -1) throw new XlsxError('format', 'truncated XML')
      text += b.toString('utf8', i + 9, close)
      i = close + 3
    }
    const next = b.indexOf(LT, i)
    if (next === -1) throw new XlsxError('format', 'truncated XML')
    text += decodeXmlText(b.toString('utf8', i, next))
    i = next
  }
  return { text, end: i }
}

/** Index of the `>` that ends the tag whose name ends at `i`, quotes respected. */
export function tagEndFrom(b: Buffer, i: number): number {
  const n = b.length
  let quote = 0
  for (; i < n; i++) {
    const ch = b[i]!
    if (quote) {
      if (ch === quote) quote = 0
    } else if (ch === GT) return i
    else if (ch === DQUOTE || ch === SQUOTE) quote = ch
  }
  throw new XlsxError('format', 'truncated XML')
}

/** Skips `<!-- -->`, `<![CDATA[ ]]>` or `<? ?>` at `i`; returns the index after it. */
function skipSpecial(b: Buffer, i: number): number {
  const marker = b[i + 1] === QMARK ? '?>' : b[i + 2] === HYPHEN ? '-->' : ']]>'
  const close = b.indexOf(marker, i + 2)
  if (close === -1) throw new XlsxError('format', 'truncated XML')
  return close + marker.length
}

/**
 * Walks the element tags of a large part over its bytes, one at a time: after `next()`, the
 * tag's local name (namespace prefix dropped) is `b[localStart, nameEnd)`. The caller moves
 * `pos` past what it consumed (usually `tagEndFrom(b, nameEnd) + 1`). Comments, CDATA outside
 * text and processing instructions are stepped over; the clock is looked at as it goes.
 */
export class TagScanner {
  /** Where the next search for `<` starts. */
  pos = 0
  isClose = false
  localStart = 0
  nameEnd = 0
  private work = 0
  constructor(
    readonly b: Buffer,
    private readonly clock: Clock,
  ) {}

  next(): boolean {
    const b = this.b
    const n = b.length
    let i = this.pos
    for (;;) {
      while (i < n && b[i] !== LT) i++
      if (i >= n) {
        this.pos = n
        return false
      }
      if ((++this.work & (CLOCK_EVERY - 1)) === 0) this.clock.check()
      const first = b[i + 1]
      if (first === BANG || first === QMARK) {
        i = skipSpecial(b, i)
        continue
      }
      const isClose = first === SLASH
      let j = isClose ? i + 2 : i + 1
      let local = j
      for (; j < n; j++) {
        const ch = b[j]!
        if (ch === GT || ch === SLASH || ch <= SPACE) break
        if (ch === COLON) local = j + 1
      }
      this.pos = i
      this.isClose = isClose
      this.localStart = local
      this.nameEnd = j
      return true
    }
  }

  get localLength(): number {
    return this.nameEnd - this.localStart
  }

  /** Whether the local name is `name` (ASCII). */
  is(name: string): boolean {
    if (this.nameEnd - this.localStart !== name.length) return false
    for (let k = 0; k < name.length; k++) if (this.b[this.localStart + k] !== name.charCodeAt(k)) return false
    return true
  }

  /** The index of the `>` ending the current tag. */
  tagEnd(): number {
    return tagEndFrom(this.b, this.nameEnd)
  }
}

/** The value range of attribute `name` inside a tag (between `from` and its `>` at `to`), or null. */
export function attributeValueRange(b: Buffer, from: number, to: number, name: string): [number, number] | null {
  let k = from
  while (k < to) {
    while (k < to && b[k]! <= SPACE) k++
    const nameStart = k
    while (k < to && b[k] !== EQ && b[k]! > SPACE && b[k] !== SLASH) k++
    const nameLength = k - nameStart
    while (k < to && b[k] !== DQUOTE && b[k] !== SQUOTE) k++
    if (k >= to) return null
    const quote = b[k]
    const valueStart = ++k
    while (k < to && b[k] !== quote) k++
    if (nameLength === name.length) {
      let isMatch = true
      for (let c = 0; c < nameLength && isMatch; c++) isMatch = b[nameStart + c] === name.charCodeAt(c)
      if (isMatch) return [valueStart, k]
    }
    k++
  }
  return null
}

export interface Tag {
  readonly name: string
  readonly isClose: boolean
  readonly attrs: ReadonlyMap<string, string>
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d

/**
 * Tags of a small part (workbook, relationships, styles): local names, attributes decoded.
 * Scanned by hand in one pass (no backtracking regex an attacker could make quadratic).
 */
export function* tagsOf(xml: string, clock: Clock): Generator<Tag> {
  const n = xml.length
  let count = 0
  for (let i = xml.indexOf('<'); i !== -1; i = xml.indexOf('<', i)) {
    if ((++count & (CLOCK_EVERY - 1)) === 0) clock.check()
    const first = xml.charCodeAt(i + 1)
    if (first === BANG || first === QMARK) {
      const marker = first === QMARK ? '?>' : xml.startsWith('<!--', i) ? '-->' : ']]>'
      const close = xml.indexOf(marker, i + 2)
      if (close === -1) throw new XlsxError('format', 'truncated XML')
      i = close + marker.length
      continue
    }
    const isClose = first === SLASH
    let j = isClose ? i + 2 : i + 1
    const nameStart = j
    while (j < n && !isSpace(xml.charCodeAt(j)) && xml.charCodeAt(j) !== GT && xml.charCodeAt(j) !== SLASH) j++
    const qualified = xml.slice(nameStart, j)
    const attrs = new Map<string, string>()
    for (;;) {
      while (j < n && isSpace(xml.charCodeAt(j))) j++
      if (j >= n) throw new XlsxError('format', 'truncated XML')
      const c = xml.charCodeAt(j)
      if (c === GT) break
      if (c === SLASH) {
        j++
        continue
      }
      const attrStart = j
      while (j < n && !isSpace(xml.charCodeAt(j)) && xml.charCodeAt(j) !== EQ && xml.charCodeAt(j) !== GT) j++
      const attrName = xml.slice(attrStart, j)
      while (j < n && isSpace(xml.charCodeAt(j))) j++
      if (xml.charCodeAt(j) !== EQ) throw new XlsxError('format', 'malformed XML attribute')
      j++
      while (j < n && isSpace(xml.charCodeAt(j))) j++
      const quote = xml[j]
      if (quote !== '"' && quote !== "'") throw new XlsxError('format', 'malformed XML attribute')
      const valueEnd = xml.indexOf(quote, j + 1)
      if (valueEnd === -1) throw new XlsxError('format', 'truncated XML')
      const value = decodeXmlText(xml.slice(j + 1, valueEnd))
      j = valueEnd + 1
      attrs.set(attrName, value)
      const colon = attrName.indexOf(':')
      if (colon >= 0 && !attrs.has(attrName.slice(colon + 1))) attrs.set(attrName.slice(colon + 1), value)
    }
    i = j + 1
    yield { name: qualified.slice(qualified.indexOf(':') + 1), isClose, attrs }
  }
}
