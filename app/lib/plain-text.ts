import { z } from './zod-mini.ts'

// Embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069) reorder the text around
// them: a name or a question carrying one can display a line that reads differently from what
// is stored (a price, a date or a word turned around in a list, a PDF, an export). Nothing a
// teacher types needs them — the pages isolate what must be isolated — so they never reach the
// database. The marks LRM, RLM and ALM are harmless and stay.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g

export function withoutBidiControls(value: string): string {
  return value.replace(BIDI_CONTROLS, '')
}

/**
 * The first check of every text field a teacher fills in: removes the bidirectional controls
 * before the length and pattern checks see the text.
 */
export function plainText() {
  return z.overwrite(withoutBidiControls)
}
