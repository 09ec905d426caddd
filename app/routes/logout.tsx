import { Form, redirect } from 'react-router'
import { CLEAR_SITE_DATA, clearSessionCookie, endWebSession, flashCookie, getCurrentSession } from '#app/features/accounts/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import type { Route } from './+types/logout'

/**
 * Without JavaScript the account menu's "Log out" lands here to confirm. Someone already signed
 * out (another tab, an expired session) goes home: asking them to log in first, to then log out,
 * helps nobody.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  if (!(await getCurrentSession(request, context))) throw redirect(localPath(lang))
  return { messages: getMessages(lang, ['accounts']) }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  // The cookie is cleared whatever happens to the session row.
  let cleared = clearSessionCookie(context.env)
  try {
    cleared = await endWebSession({ ...context, request })
  } catch (error) {
    context.logger.warn({ err: error instanceof Error ? error.message : 'unknown' }, 'logout could not revoke the session')
  }
  const headers = new Headers({ 'Clear-Site-Data': CLEAR_SITE_DATA })
  headers.append('Set-Cookie', cleared)
  headers.append('Set-Cookie', flashCookie('success', 'accounts.messages.loggedOut'))
  return redirect(localPath(lang), { headers })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'accounts.meta.logout', 'logout')

export default function Logout() {
  const { t } = useT()
  return (
    <section className="section">
      <div className="container narrow center">
        <div className="card confirm-card">
          <h1>{t('session.logout.title')}</h1>
          <p>{t('session.logout.text')}</p>
          {/* A document submission: the answer's Clear-Site-Data removes the service worker and the
              cache, and the next page loads whole, with nothing of the signed-in pages in memory. */}
          <Form method="post" reloadDocument className="dialog-actions">
            <button type="submit" className="button button-primary">
              {t('session.logout.confirm')}
            </button>
            <AppLink to="" className="button button-ghost">
              {t('session.logout.cancel')}
            </AppLink>
          </Form>
        </div>
      </div>
    </section>
  )
}
