import { formatDate } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { PageHero } from '#app/ui/page-hero.tsx'

/** When the privacy policy and the terms last changed (shown with its Hijri date). */
export const LEGAL_UPDATED_ON = '2026-11-22T09:00:00Z'

type LegalSection = { title: string; paragraphs: string[]; items: string[] }

/** The privacy policy and the terms: numbered sections with an index. */
export function LegalPage({ ns }: { ns: 'privacy' | 'terms' }) {
  const { t, tm } = useT()
  const lang = useLang()
  const updated = formatDate(lang, LEGAL_UPDATED_ON)
  const sections = tm<LegalSection[]>(`${ns}.sections`)
  return (
    <article className="legal">
      <PageHero title={t(`${ns}.title`)} lead={t(`${ns}.intro`)}>
        <p className="muted">{t(`${ns}.updated`, { date: `${updated.gregorian} (${updated.hijri})` })}</p>
      </PageHero>
      <div className="container narrow legal-body">
        <nav className="legal-toc" aria-labelledby={`${ns}-toc`}>
          <h2 id={`${ns}-toc`} className="visually-hidden">
            {t(`${ns}.title`)}
          </h2>
          <ol>
            {sections.map((section, i) => (
              <li key={section.title}>
                <a href={`#section-${i + 1}`}>{section.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        {sections.map((section, i) => (
          <section key={section.title} id={`section-${i + 1}`} className="legal-section">
            <h2>
              <span className="legal-number">{i + 1}.</span> {section.title}
            </h2>
            {section.paragraphs.map((p) => (
              <p key={p}>{p}</p>
            ))}
            {section.items.length > 0 ? (
              <ul>
                {section.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : null}
          </section>
        ))}
      </div>
    </article>
  )
}
