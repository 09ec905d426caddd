import { data } from 'react-router'
import { getCurrentSession, type CurrentSession } from '#app/features/accounts/index.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import type { RequestContext } from '#app/platform/context.server.ts'

// The operator area's one gate (docs/operators.md). Anyone who is not an operator — a guest, a
// teacher, a deactivated account — is told the area does not exist (404, never 401 or 403, so a
// teacher learns nothing of it). An operator without two-step verification is told to turn it
// on first (403), since the area can deactivate accounts and refund payments.

type GateSession = { user: Pick<CurrentSession['user'], 'role' | 'totpEnabledAt' | 'deactivatedAt'>; openedAt: Date }

/**
 * Who may open the area: `open`; `two-factor-required` (an operator without it); `sign-in-again`
 * (an operator whose session was opened before the second factor was turned on, with the password
 * alone: such a session could be anyone's who had the password); `not-found` (everyone else).
 */
export type OperatorAccess = 'open' | 'two-factor-required' | 'sign-in-again' | 'not-found'

export function operatorAccess(session: GateSession | null | undefined): OperatorAccess {
  const user = session?.user
  if (!session || !user || user.role !== 'operator' || user.deactivatedAt) return 'not-found'
  if (!user.totpEnabledAt) return 'two-factor-required'
  return session.openedAt < user.totpEnabledAt ? 'sign-in-again' : 'open'
}

/** What the 403 of an operator the area does not open to yet carries: the layout's error boundary shows the page for it. */
export type OperatorGateRefusal = { operatorGate: 'two-factor-required' | 'sign-in-again' }

export function isOperatorGateRefusal(value: unknown): value is OperatorGateRefusal {
  const gate = typeof value === 'object' && value !== null ? (value as OperatorGateRefusal).operatorGate : undefined
  return gate === 'two-factor-required' || gate === 'sign-in-again'
}

/**
 * Every loader and action under /:lang/admin calls this first (loaders run side by side, so the
 * layout's check alone would not stop a page's). Returns the operator's session; throws the
 * site's 404 to everyone else, and a 403 whose page asks an operator to turn on two-step
 * verification, or to sign in again with it.
 */
export async function requireOperatorPage(request: Request, context: RequestContext, _lang: Lang): Promise<CurrentSession> {
  const current = await getCurrentSession(request, context)
  const access = operatorAccess(current)
  if (access === 'not-found' || !current) throw data(null, { status: 404, statusText: 'Not Found' })
  if (access !== 'open') throw data<OperatorGateRefusal>({ operatorGate: access }, { status: 403 })
  return current
}

/**
 * The area's layout: the site's 404 to anyone not an operator; otherwise what the layout shows
 * (the area, or the page asking for two-step verification first).
 */
export async function operatorAreaAccess(request: Request, context: RequestContext): Promise<Exclude<OperatorAccess, 'not-found'>> {
  const access = operatorAccess(await getCurrentSession(request, context))
  if (access === 'not-found') throw data(null, { status: 404, statusText: 'Not Found' })
  return access
}
