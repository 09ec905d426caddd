import { useT } from '#app/i18n/use-t.ts'
import { AppLink } from '#app/ui/app-link.tsx'

/**
 * What an operator sees in place of the area until it opens (docs/operators.md): turn on two-step
 * verification first, or, with it on, sign in again with the code (this session was opened with
 * the password alone).
 */
export function TwoFactorFirst({ reason }: { reason: 'two-factor-required' | 'sign-in-again' }) {
  const { t } = useT()
  if (reason === 'sign-in-again')
    return (
      <section className="card admin-gate" aria-labelledby="admin-gate-title">
        <h1 id="admin-gate-title">{t('operators.gate.signInAgain.title')}</h1>
        <p>{t('operators.gate.signInAgain.lead')}</p>
        <AppLink className="button button-primary" to="logout">
          {t('operators.gate.signInAgain.action')}
        </AppLink>
      </section>
    )
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
