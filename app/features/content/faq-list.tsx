export type FaqItem = { q: string; a: string }

/** Questions as disclosures: keyboard and screen-reader friendly, no JavaScript needed. */
export function FaqList({ items }: { items: FaqItem[] }) {
  return (
    <div className="faq-list">
      {items.map((item) => (
        <details key={item.q} className="faq-item">
          <summary>{item.q}</summary>
          <p>{item.a}</p>
        </details>
      ))}
    </div>
  )
}
