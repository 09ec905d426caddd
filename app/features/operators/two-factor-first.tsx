import { useT } from '#app/i18n/use-t.ts'
import { AppLink } from '#app/ui/app-link.tsx'

/** What an operator without two-step verification sees in place of the area (docs/operators.md). */
export function TwoFactorFirst() {
  const { t } = useT()
  return (
    <section className="card admin-gate" aria-labelledby="admin-gate-title">
      <h1 id="admin-gate-title">{t('operators.gate.title')}</h1>
      <p>{t('operators.gate.lead')}</p>
      <p>{t('operators.gate.steps')}</p>
      <AppLink className="button button-primary" to="profile#two-factor">
        {t('operators.gate.action')}
      </AppLink>
    </section>
  )
}
