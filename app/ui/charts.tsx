// Charts drawn by the server as plain HTML and SVG: they read in either direction (bars grow
// from the inline start, timelines run with the reading direction), print as they look, and
// carry a text alternative; the tables beside them hold every figure.

export type ChartTone =
  | 'present'
  | 'late'
  | 'excused'
  | 'unexcused'
  | 'band1'
  | 'band2'
  | 'band3'
  | 'band4'
  | 'band5'
  | 'tier-satisfactory'
  | 'tier-at-risk'
  | 'tier-chronic'
  | 'tier-severe'

export type ChartSegment = { key: string; label: string; value: number; tone: ChartTone }
export type ChartRow = { key: string; label: string; segments: ChartSegment[]; note?: string }

/** One horizontal bar per group, split into segments that add up to 100 (percentages). */
export function StackedBarChart({
  title,
  rows,
  formatValue,
  id,
  note,
}: {
  title: string
  rows: ChartRow[]
  formatValue: (value: number) => string
  id: string
  /** What the figure beside each bar is, when it is not the bar's first segment (the PDF says the same). */
  note?: string
}) {
  const legend = rows[0]?.segments ?? []
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      {note ? <p className="chart-note">{note}</p> : null}
      <ChartLegend items={legend.map((s) => ({ key: s.key, label: s.label, tone: s.tone }))} />
      <ul className="stacked-bars">
        {rows.map((row) => {
          const description = row.segments.map((s) => `${s.label} ${formatValue(s.value)}`).join('، ')
          return (
            <li key={row.key} className="stacked-row">
              <span className="stacked-label">{row.label}</span>
              <span className="stacked-track" role="img" aria-label={`${row.label}: ${description}`}>
                {row.segments.map((s) =>
                  s.value > 0 ? (
                    <span
                      key={s.key}
                      className={`stacked-segment tone-${s.tone}`}
                      style={{ inlineSize: `${Math.min(100, Math.max(0, s.value))}%` }}
                    />
                  ) : null,
                )}
              </span>
              <span className="stacked-value">{row.note ?? formatValue(row.segments[0]?.value ?? 0)}</span>
            </li>
          )
        })}
      </ul>
    </figure>
  )
}

export function ChartLegend({ items }: { items: { key: string; label: string; tone: ChartTone }[] }) {
  // One colour needs no key: each bar (or the one line) is already named beside it or in the title.
  if (items.length < 2) return null
  return (
    <ul className="chart-legend">
      {items.map((item) => (
        <li key={item.key}>
          <span className={`legend-swatch tone-${item.tone}`} aria-hidden="true" />
          {item.label}
        </li>
      ))}
    </ul>
  )
}

export type LineSeries = { key: string; label: string; tone: ChartTone; values: number[] }

const H = 240
const PAD = { top: 12, bottom: 36, start: 52, end: 12 }
const plotH = H - PAD.top - PAD.bottom

/**
 * A timeline is drawn twice, at two widths, and the screen shows one: the full drawing, never
 * narrower than its own size so its labels keep reading size, and on a phone a compact one that
 * fits the screen whole (its first and last periods labelled) instead of a half seen through a
 * scrolling box. The hidden one (display: none) is out of the accessibility tree.
 */
interface TimelineLayout {
  readonly width: number
  readonly plotW: number
  readonly compact: boolean
}
const layouts: readonly TimelineLayout[] = [
  { width: 640, plotW: 640 - PAD.start - PAD.end, compact: false },
  { width: 320, plotW: 320 - PAD.start - PAD.end, compact: true },
]

/** The time labels drawn under a timeline of n periods: the first, the middle (not when compact) and the last. */
const shownLabels = (n: number, compact: boolean) =>
  n <= 1 ? [0] : [...new Set(compact ? [0, n - 1] : [0, Math.floor((n - 1) / 2), n - 1])]

/** What a timeline is given: its title and id, the period labels and the series, the page's direction. */
interface TimelineProps {
  title: string
  labels: string[]
  series: LineSeries[]
  dir: 'rtl' | 'ltr'
  id: string
  formatValue: (value: number) => string
}

/**
 * What the line and column charts share: the title, the legend, the scrolling box, the value
 * axis with its gridlines on the inline-start side (the right in Arabic), and the period labels
 * (the first and last at the plot's edges, anchored inwards so neither is cut off; another at
 * `centreX`). The chart draws its series inside, for each layout.
 */
function TimelineFrame({
  chart: { title, id, series, dir, labels },
  summary,
  ticks,
  yAt,
  formatTick,
  centreX,
  draw,
}: {
  chart: TimelineProps
  summary: string
  ticks: number[]
  yAt: (value: number) => number
  formatTick: (value: number) => string
  /** Where the label of period i stands when it is neither the first nor the last (or the only one). */
  centreX: (i: number, layout: TimelineLayout) => number
  draw: (layout: TimelineLayout) => React.ReactNode
}) {
  const n = labels.length
  return (
    <figure className="chart chart-wide" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <ChartLegend items={series.map((s) => ({ key: s.key, label: s.label, tone: s.tone }))} />
      {layouts.map((layout) => {
        const { width, plotW } = layout
        const axisX = dir === 'rtl' ? width - PAD.start + 6 : PAD.start - 6
        // The plot's edges along the reading direction, in SVG x (from the left).
        const readingStart = dir === 'rtl' ? width - PAD.start : PAD.start
        const readingEnd = dir === 'rtl' ? width - PAD.start - plotW : PAD.start + plotW
        return (
          // Focusable so the keyboard can scroll it, and so a region (a landmark): a scrollable box
          // in the focus order needs a role axe's focus-order-semantics accepts.
          <div
            key={width}
            className={`chart-scroll ${layout.compact ? 'chart-compact' : 'chart-full'}`}
            // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex
            tabIndex={0}
            role="region"
            aria-labelledby={`${id}-title`}
          >
            <svg
              className="line-chart"
              viewBox={`0 0 ${width} ${H}`}
              role="img"
              aria-label={`${title}. ${summary}`}
              preserveAspectRatio="xMidYMid meet"
            >
              {ticks.map((t) => (
                <g key={t}>
                  <line
                    className="chart-gridline"
                    x1={PAD.start}
                    x2={width - PAD.end}
                    y1={yAt(t)}
                    y2={yAt(t)}
                    transform={dir === 'rtl' ? `translate(${PAD.end - PAD.start} 0)` : undefined}
                  />
                  {/* The text runs in the page's direction, so its end is the side away from the plot in both. */}
                  <text className="chart-axis" x={axisX} y={yAt(t) + 4} textAnchor="end">
                    {formatTick(t)}
                  </text>
                </g>
              ))}
              {shownLabels(n, layout.compact).map((i) => {
                const isFirst = n > 1 && i === 0
                const isLast = n > 1 && i === n - 1
                return (
                  <text
                    key={i}
                    className="chart-axis"
                    x={isFirst ? readingStart : isLast ? readingEnd : centreX(i, layout)}
                    y={H - 12}
                    textAnchor={isFirst ? 'start' : isLast ? 'end' : 'middle'}
                  >
                    {labels[i]}
                  </text>
                )
              })}
              {draw(layout)}
            </svg>
          </div>
        )
      })}
    </figure>
  )
}

/**
 * Percentages over time. In a right-to-left page time runs from right to left, as Arabic
 * readers expect, with the axis on the right.
 */
export function LineChart(props: TimelineProps) {
  const { labels, series, dir, formatValue } = props
  const n = labels.length
  const yAt = (v: number) => PAD.top + plotH - (Math.min(100, Math.max(0, v)) / 100) * plotH
  const summary = series.map((s) => `${s.label}: ${s.values.map(formatValue).join('، ')}`).join(' — ')
  const xAt = (i: number, { width, plotW }: TimelineLayout) => {
    const along = n <= 1 ? plotW / 2 : (i / (n - 1)) * plotW
    return dir === 'rtl' ? width - PAD.start - along : PAD.start + along
  }
  const draw = (layout: TimelineLayout) =>
    series.map((s) => (
      <g key={s.key} className={`chart-series tone-${s.tone}`}>
        <polyline fill="none" points={s.values.map((v, i) => `${xAt(i, layout).toFixed(1)},${yAt(v).toFixed(1)}`).join(' ')} />
        {n <= (layout.compact ? 20 : 40) ? s.values.map((v, i) => <circle key={i} cx={xAt(i, layout)} cy={yAt(v)} r={3} />) : null}
      </g>
    ))
  return (
    <TimelineFrame
      chart={props}
      summary={summary}
      ticks={[0, 25, 50, 75, 100]}
      yAt={yAt}
      formatTick={formatValue}
      centreX={xAt}
      draw={draw}
    />
  )
}

/**
 * The axis of a count or an amount: a round step (1, 2 or 5 times a power of ten, at least
 * `minStep`) and the top it reaches, about four steps over the largest value; all zero, one step.
 */
export function axisScale(max: number, minStep: number): { step: number; top: number } {
  const raw = Math.max(max / 4, minStep)
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power
  return { step, top: step * Math.max(1, Math.ceil(max / step)) }
}

/**
 * Counts or amounts over days or months, as columns (one per series in each period, side by
 * side). Time runs with the reading direction, right to left in Arabic with the axis on the
 * right, as the LineChart does; the axis starts at 0 and ends at a round figure.
 */
export function ColumnChart({
  formatAxis,
  minStep = 1,
  ...props
}: TimelineProps & {
  formatAxis?: (value: number) => string
  /** The smallest step of the axis: 1 for counts (no half a sign-up), 100 halalas for money (whole riyals). */
  minStep?: number
}) {
  const { labels, series, dir, formatValue } = props
  const n = labels.length
  const { step, top } = axisScale(Math.max(0, ...series.flatMap((s) => s.values)), minStep)
  const yAt = (v: number) => PAD.top + plotH - (Math.max(0, v) / top) * plotH
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step)
  const summary = series.map((s) => `${s.label}: ${s.values.map((v, i) => `${labels[i]} ${formatValue(v)}`).join('، ')}`).join(' — ')
  const slotOf = ({ plotW }: TimelineLayout) => plotW / Math.max(1, n)
  // The slot's start along the reading direction, in SVG x (from the left).
  const slotX = (i: number, layout: TimelineLayout) =>
    dir === 'rtl' ? layout.width - PAD.start - (i + 1) * slotOf(layout) : PAD.start + i * slotOf(layout)
  const draw = (layout: TimelineLayout) => {
    const slot = slotOf(layout)
    const gap = Math.min(6, slot * 0.2)
    const barW = Math.max(1, (slot - gap) / Math.max(1, series.length))
    return series.map((s, k) => (
      <g key={s.key} className={`chart-columns tone-${s.tone}`}>
        {s.values.map((v, i) =>
          v > 0 ? (
            <rect
              key={i}
              // In Arabic the first series stands on the right of its pair, as it is read first.
              x={slotX(i, layout) + gap / 2 + (dir === 'rtl' ? series.length - 1 - k : k) * barW}
              y={yAt(v)}
              width={barW}
              height={Math.max(0, PAD.top + plotH - yAt(v))}
              rx={Math.min(2, barW / 3)}
            >
              <title>{`${labels[i]}: ${s.label} ${formatValue(v)}`}</title>
            </rect>
          ) : null,
        )}
      </g>
    ))
  }
  return (
    <TimelineFrame
      chart={props}
      summary={summary}
      ticks={ticks}
      yAt={yAt}
      formatTick={formatAxis ?? formatValue}
      centreX={(i, layout) => slotX(i, layout) + slotOf(layout) / 2}
      draw={draw}
    />
  )
}
