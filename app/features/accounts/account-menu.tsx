import { useRef } from 'react'
import { Form, useLocation, useRouteLoaderData } from 'react-router'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'

type RootUser = { username: string; avatarUrl: string | null; unread: number; isOperator: boolean } | null

/**
 * Guests see Log in and Create account; a teacher sees the account menu with the unread count,
 * and logging out asks first (a dialog with JavaScript, the logout page without).
 */
export function AccountMenu() {
  const { t } = useT()
  const lang = useLang()
  const location = useLocation()
  const root = useRouteLoaderData('root') as { user?: RootUser } | undefined
  const dialog = useRef<HTMLDialogElement>(null)
  const menu = useRef<HTMLDetailsElement>(null)
  const user = root?.user
  if (!user) {
    const back = encodeURIComponent(`${location.pathname}${location.search}`)
    return (
      <div className="guest-actions">
        <a className="button button-ghost button-small" href={`${localPath(lang, 'login')}?redirectTo=${back}`}>
          {t('session.menu.login')}
        </a>
        <AppLink className="button button-primary button-small" to="SignIn">
          {t('session.menu.register')}
        </AppLink>
      </div>
    )
  }
  const unreadLabel = t('session.menu.unread', { count: user.unread })
  return (
    <>
      <details className="account-menu" ref={menu}>
        {/* The initial and the count are drawn by CSS, not written as text: the button's name holds
            every word on it (WCAG 2.5.3), and a stray "n" and "3" around the name would not be. */}
        <summary className="account-button" aria-label={`${t('session.menu.label')}: ${user.username}. ${unreadLabel}`}>
          {user.avatarUrl ? (
            <img src={user.avatarUrl} alt="" className="avatar" width={32} height={32} />
          ) : (
            <span className="avatar avatar-initial" aria-hidden="true" data-initial={user.username.slice(0, 1)} />
          )}
          <span className="account-name">{user.username}</span>
          {user.unread > 0 ? <span className="unread-badge" aria-hidden="true" data-count={user.unread} /> : null}
        </summary>
        <div className="menu-panel">
          <ul>
            <li>
              <AppLink to="analysis">{t('session.menu.absence')}</AppLink>
            </li>
            <li>
              <AppLink to="analysis-grade">{t('session.menu.grades')}</AppLink>
            </li>
            <li>
              <AppLink to="exams">{t('session.menu.exams')}</AppLink>
            </li>
            <li>
              <AppLink to="last-multiple">{t('session.menu.analyses')}</AppLink>
            </li>
            <li className="menu-group-start">
              <AppLink to="profile">{t('session.menu.profile')}</AppLink>
            </li>
            <li>
              <AppLink to="subscriptions">{t('session.menu.subscriptions')}</AppLink>
            </li>
            <li>
              <AppLink to="notifications">
                {t('session.menu.notifications')}
                {user.unread > 0 ? (
                  <>
                    <span className="unread-badge" aria-hidden="true" data-count={user.unread} />
                    <span className="visually-hidden">{` ${unreadLabel}`}</span>
                  </>
                ) : null}
              </AppLink>
            </li>
            {user.isOperator ? (
              <li className="menu-group-start">
                <AppLink to="admin">{t('session.menu.operatorArea')}</AppLink>
              </li>
            ) : null}
            <li>
              <a
                href={localPath(lang, 'logout')}
                onClick={(event) => {
                  if (!dialog.current?.showModal) return
                  event.preventDefault()
                  if (menu.current) menu.current.open = false
                  dialog.current.showModal()
                }}
              >
                {t('session.menu.logout')}
              </a>
            </li>
          </ul>
        </div>
      </details>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby="logout-title">
        <Form method="post" action={localPath(lang, 'logout')} reloadDocument onSubmit={() => dialog.current?.close()}>
          <h2 id="logout-title">{t('session.logout.title')}</h2>
          <p>{t('session.logout.text')}</p>
          <div className="dialog-actions">
            <button type="submit" className="button button-primary">
              {t('session.logout.confirm')}
            </button>
            <button type="button" className="button button-ghost" onClick={() => dialog.current?.close()}>
              {t('session.logout.cancel')}
            </button>
          </div>
        </Form>
      </dialog>
    </>
  )
}
