import type { CSSProperties, ReactNode } from 'react'
import { useT } from '#app/i18n/use-t.ts'
import { LINE_CAPACITIES, lineSizes } from './balanced-rows.ts'

// Pieces every analysis report shows the same way (absence, grades).

export type KeyFigureItem = { label: string; value: string; tone?: string }

export function KeyFigure({ label, value, tone, style }: KeyFigureItem & { style?: CSSProperties }) {
  return (
    <div className={`key-figure${tone ? ` tone-${tone}` : ''}`} style={style}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  )
}

/**
 * The key figures as cards, in lines that never leave one card alone on the last: each card
 * carries the size of its line for each width the grid may have (`--line-2` … `--line-6`), and
 * the stylesheet picks the one for the grid's width (a container query).
 */
export function KeyFigures({ items, isSmall }: { items: readonly (KeyFigureItem | null | false)[]; isSmall?: boolean }) {
  const shown = items.filter((item): item is KeyFigureItem => Boolean(item))
  const sizes = lineSizes(shown.length)
  return (
    <dl className={`key-figures${isSmall ? ' key-figures-small' : ''}`} data-count={shown.length}>
      {shown.map((item, i) => (
        <KeyFigure
          key={item.label}
          {...item}
          style={Object.fromEntries(LINE_CAPACITIES.map((capacity) => [`--line-${capacity}`, sizes[i]![capacity]])) as CSSProperties}
        />
      ))}
    </dl>
  )
}

export type SkippedRowView = { row: number; reason: { key: string; values?: Readonly<Record<string, string | number>> } }

/** The rows an analysis left out, by the row number Excel shows and the reason (the first 500). */
export function SkippedRows({ rows }: { rows: readonly SkippedRowView[] }) {
  const { t } = useT()
  return (
    <section className="report-section" aria-labelledby="skipped-title">
      <h2 id="skipped-title">{t('analyses.report.skipped', { count: rows.length })}</h2>
      {rows.length ? (
        <>
          <p className="muted">{t('analyses.report.skippedLead')}</p>
          <div className="table-wrap">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col" className="num">
                    {t('analyses.report.row')}
                  </th>
                  <th scope="col">{t('analyses.report.reason')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.slice(0, 500).map((r) => (
                  <tr key={r.row}>
                    <td className="num">{r.row}</td>
                    <td>{t(r.reason.key, r.reason.values)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p>{t('analyses.report.noSkipped')}</p>
      )}
    </section>
  )
}

/**
 * A table of figures per group (classroom, section, date…): the group's name heads each row,
 * then one cell per column, numbers and their headers aligned at the end. On a phone the table
 * scrolls under its first column, which stays in place so each row keeps its name; the region
 * is focusable so the keyboard can scroll it too.
 */
export function GroupTable<G>({
  caption,
  groupHeader,
  columns,
  rows,
}: {
  caption: string
  groupHeader: string
  columns: readonly { header: string; cell: (group: G) => string }[]
  /** `content` shows the label with its own line breaks (a date beside its Hijri twin). */
  rows: readonly { label: string; content?: ReactNode; group: G }[]
}) {
  return (
    // A region that scrolls must take the keyboard's focus, or a keyboard cannot scroll it (axe scrollable-region-focusable).
    // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="table-wrap table-sticky" tabIndex={0} role="region" aria-label={caption}>
      <table className="data-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{groupHeader}</th>
            {columns.map((c) => (
              <th key={c.header} scope="col" className="num">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ label, content, group }) => (
            <tr key={label}>
              <th scope="row">{content ?? label}</th>
              {columns.map((c) => (
                <td key={c.header} className="num">
                  {c.cell(group)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
