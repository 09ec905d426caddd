import { redirect } from 'react-router'
import { flashCookie } from '#app/features/accounts/index.server.ts'
import { DomainError, isDomainError } from '#app/lib/errors.ts'
import { fieldErrorsOf } from '#app/lib/forms.ts'
import { z } from '#app/lib/zod-mini.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import type { Operator } from './audit.server.ts'
import { limitOperatorWrites } from './limits.server.ts'

export type OperatorPageWriteOptions = {
  context: RequestContext
  operator: Operator
  /** Where the page goes next, with the message of the outcome. */
  back: string
  /** The use case; answers the success message's key. */
  run: () => Promise<string>
}

/**
 * An operator page's write, after `requireOperatorPage`: counted against the operator's hourly
 * allowance, run, and answered with a redirect back carrying the outcome (a refusal's message
 * too, as an error), so every button of a list works without JavaScript.
 */
export async function operatorPageWrite({ context, operator, back, run }: OperatorPageWriteOptions): Promise<Response> {
  try {
    await limitOperatorWrites({ db: context.db, operatorId: operator.id })
    const done = await run()
    return redirect(back, { headers: { 'Set-Cookie': flashCookie('success', done) } })
  } catch (error) {
    if (!isDomainError(error)) throw error
    const headers = new Headers({ 'Set-Cookie': flashCookie('error', error.messageKey) })
    if (error.retryAfterSeconds) headers.set('Retry-After', String(error.retryAfterSeconds))
    return redirect(back, { headers })
  }
}

/** The acting operator as the audit log records them. */
export const operatorOf = (user: { id: string; email: string }): Operator => ({ id: user.id, email: user.email })

/** A small form's fields (an action's name) through its schema, or the 422 DomainError of its first message. */
export function parseOperatorForm<S extends z.ZodMiniType>(schema: S, values: unknown): z.infer<S> {
  const parsed = z.safeParse(schema, values)
  if (!parsed.success) {
    const fields = fieldErrorsOf(parsed.error)
    throw new DomainError(422, Object.values(fields).flat()[0] ?? 'common.errors.validation', fields)
  }
  return parsed.data
}
