/**
 * Text normalisation shared by the analyses (docs/absence.md, "Cell values"): the same header,
 * name or status written with or without diacritics, tatweel, another alef or Arabic-Indic
 * digits compares equal. Results are cached per distinct string: a sheet repeats the same few
 * hundred names and statuses across 100,000 rows.
 */

// Tashkeel U+064B–U+065F and U+0670, tatweel U+0640, and the invisible marks Noor's exports
// carry around Hijri dates and names: zero-width space U+200B, joiners and bidi marks
// U+200C–U+200F, embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069, the Arabic
// letter mark U+061C and the byte order mark U+FEFF.
const marks = /[\u064B-\u065F\u0670\u0640\u200B-\u200F\u202A-\u202E\u2066-\u2069\u061C\uFEFF]/g
// أ إ آ ٱ → ا, ى → ي, Arabic-Indic ٠–٩ and Eastern Arabic-Indic ۰–۹ → 0–9.
const letters = /[\u0623\u0625\u0622\u0671\u0649\u0660-\u0669\u06F0-\u06F9]/g
const spaces = /\s+/g
const nonAscii = /[^\x20-\x7E]/
const arabicLetter = /[\u0620-\u064A\u066E-\u06D3]/

function mapLetter(ch: string): string {
  const code = ch.charCodeAt(0)
  if (code >= 0x0660 && code <= 0x0669) return String.fromCharCode(code - 0x0660 + 48)
  if (code >= 0x06f0 && code <= 0x06f9) return String.fromCharCode(code - 0x06f0 + 48)
  return code === 0x0649 ? '\u064A' : '\u0627'
}

// Anything but single spaces between words: only then is the (allocating) replace needed.
const untidySpace = /[^\S ]| {2}/

function collapse(text: string): string {
  return untidySpace.test(text) ? text.replace(spaces, ' ').trim() : text.trim()
}

function computeNormalized(text: string): string {
  // Plain ASCII only needs its white space collapsed (most English headers and statuses).
  if (!nonAscii.test(text)) return collapse(text)
  return collapse(text.normalize('NFKC').replace(marks, '').replace(letters, mapLetter))
}

/** Keeps each cache bounded in a long-running server: it only needs to hold one sheet's distinct strings. */
const cacheLimit = 200_000

function cached(compute: (text: string) => string): (text: string) => string {
  const cache = new Map<string, string>()
  return (text) => {
    let out = cache.get(text)
    if (out === undefined) {
      out = compute(text)
      if (cache.size >= cacheLimit) cache.clear()
      cache.set(text, out)
    }
    return out
  }
}

/** NFKC; no tashkeel, tatweel or bidi marks; one alef and one yeh; ASCII digits; single spaces; trimmed. */
export const normalizeText = cached(computeNormalized)

/** normalizeText, plus ة → ه: for matching names only (محمد عبدالله الغامدية ≈ الغامديه). */
export const normalizeName = cached((text) => computeNormalized(text).replace(/\u0629/g, '\u0647'))

/** normalizeText, lower-cased: for comparing headers, title labels and statuses in either language. */
export const normalizeLabel = cached((text) => computeNormalized(text).toLowerCase())

const digits = /[\u0660-\u0669\u06F0-\u06F9]/g

/**
 * A name or label as it should be displayed: the text as written, without the marks that only
 * make two spellings differ (tashkeel, tatweel, bidi marks), with single spaces and Latin digits
 * (as the app prints figures). Letters (أ, إ, ة) are kept as written.
 */
export const cleanText = cached((text) => collapse(text.normalize('NFKC').replace(marks, '').replace(digits, mapLetter)))

/** Whether the text holds Arabic letters (to tell an Arabic sheet from an English one). */
export function hasArabic(text: string): boolean {
  return arabicLetter.test(text)
}
