// Which React pages paint before their modules load (decisions 013 and 016). Not server-only: a
// route module's `handle` names it, and the handle reaches the browser too.

/** A route's `handle`: its page loads its modules as rendered, not after the first paint (decision 016). */
export const scriptsBeforePaint = { paintFirst: false } as const

/** `PAINT_FIRST`: each page's choice, or the same for every page (to measure one against the other). */
export type PaintFirstSetting = 'pages' | 'always' | 'never'

/** Whether the page of these matched routes' handles paints before its modules load. */
export function isPaintFirst(setting: PaintFirstSetting, handles: readonly unknown[]): boolean {
  if (setting !== 'pages') return setting === 'always'
  return !handles.some((handle) => (handle as { paintFirst?: unknown } | undefined)?.paintFirst === false)
}
