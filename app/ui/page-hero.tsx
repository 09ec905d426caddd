import type { ReactNode } from 'react'

/** The top of a content page: its one h1 and a lead paragraph. */
export function PageHero({ title, lead, children }: { title: string; lead?: ReactNode; children?: ReactNode }) {
  return (
    <section className="page-hero">
      <div className="container narrow">
        <h1>{title}</h1>
        {children}
        {lead ? <p className="lead">{lead}</p> : null}
      </div>
    </section>
  )
}

/** A titled section of a page, optionally on the alternate background. */
export function PageSection({
  id,
  title,
  lead,
  alt,
  narrow,
  children,
}: {
  id: string
  title: string
  lead?: string
  alt?: boolean
  narrow?: boolean
  children: ReactNode
}) {
  return (
    <section className={`section${alt ? ' section-alt' : ''}`} aria-labelledby={`${id}-title`}>
      <div className={`container${narrow ? ' narrow' : ''}`}>
        <h2 id={`${id}-title`} className="section-title" data-reveal>
          {title}
        </h2>
        {lead ? (
          <p className="section-lead" data-reveal>
            {lead}
          </p>
        ) : null}
        {children}
      </div>
    </section>
  )
}

export type TitledText = { title: string; text: string }

/** A grid of small cards, each a title and a paragraph. */
export function CardGrid({ items, columns, reveal }: { items: TitledText[]; columns: 2 | 3 | 4; reveal?: boolean }) {
  return (
    <div className={`card-grid card-grid-${columns}`}>
      {items.map((item) => (
        <article key={item.title} className="card card-plain" data-reveal={reveal ? true : undefined}>
          <h3>{item.title}</h3>
          <p>{item.text}</p>
        </article>
      ))}
    </div>
  )
}
