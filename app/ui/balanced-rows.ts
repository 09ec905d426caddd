// How a row of cards breaks into lines so that no card is left alone on the last one.

/** The most cards a line holds, by how wide the grid is (the container queries in app.css). */
export const LINE_CAPACITIES = [2, 3, 4, 6] as const
export type LineCapacity = (typeof LINE_CAPACITIES)[number]

/**
 * The cards of each line, first to last, for `count` cards and lines of at most `capacity`:
 * as few lines as fit, as even as can be, the fuller lines first. When a line must hold a
 * single card (3 cards two to a line), it is the first, the headline figure across the width,
 * never the last. One card is one line.
 */
export function balancedRows(count: number, capacity: number): number[] {
  if (count <= 0) return []
  const lines = Math.ceil(count / capacity)
  const base = Math.floor(count / lines)
  const fuller = count % lines
  const rows = [...Array.from({ length: fuller }, () => base + 1), ...Array.from({ length: lines - fuller }, () => base)]
  return base === 1 && count > 1 ? rows.toReversed() : rows
}

/** For each card, how many cards share its line, under each capacity. */
export function lineSizes(count: number): Record<LineCapacity, number>[] {
  const perCapacity = LINE_CAPACITIES.map((capacity) =>
    balancedRows(count, capacity).flatMap((size) => Array.from({ length: size }, () => size)),
  )
  return Array.from(
    { length: count },
    (_, i) => Object.fromEntries(LINE_CAPACITIES.map((capacity, c) => [capacity, perCapacity[c]![i]!])) as Record<LineCapacity, number>,
  )
}
