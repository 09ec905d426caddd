import { redirect } from 'react-router'
import { flashCookie, requireUser } from '#app/features/accounts/index.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { currentSubscription } from './subscriptions.server.ts'

/**
 * The tools' page guard (absence, grades, tests): a guest goes to login (`Login is required`)
 * and back; a teacher without a current subscription goes to the packages with
 * `You are not subscribed to a package, please subscribe first`. The API uses
 * `requireSubscription` (403 with the same message).
 */
export async function requireSubscriberPage(request: Request, context: RequestContext, lang: Lang) {
  const session = await requireUser(request, context, lang)
  const subscription = await currentSubscription({ db: context.db, userId: session.user.id })
  if (!subscription)
    throw redirect(`/${lang}/packages`, { headers: { 'Set-Cookie': flashCookie('error', 'billing.errors.notSubscribed') } })
  return { ...session, subscription }
}
