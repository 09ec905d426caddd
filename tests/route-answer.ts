// What a route module's loader or action answered, whether it returned or threw it (a redirect,
// `data(…, { status })`, or plain data), in one shape the page tests compare; and the flash message
// a redirect set.

export interface RouteAnswer {
  readonly status: number
  readonly location: string | null
  readonly cookies: string[]
  readonly body: unknown
}

/** An error thrown (not a Response or data) is thrown again: it is a failure, not an answer. */
export async function routeAnswer(run: () => Promise<unknown>): Promise<RouteAnswer> {
  const result = await run().catch((thrown: unknown) => thrown)
  if (result instanceof Error) throw result
  if (result instanceof Response)
    return { status: result.status, location: result.headers.get('location'), cookies: result.headers.getSetCookie(), body: null }
  const wrapped = result as { type?: string; data?: unknown; init?: { status?: number } }
  if (wrapped?.type === 'DataWithResponseInit')
    return { status: wrapped.init?.status ?? 200, location: null, cookies: [], body: wrapped.data }
  return { status: 200, location: null, cookies: [], body: result }
}

/** The flash message's key a response's cookies carry ('' without one). */
export const flashOf = (cookies: readonly string[]) =>
  decodeURIComponent(
    cookies
      .find((c) => c.startsWith('hallil_flash='))
      ?.split(';')[0]
      ?.slice(13) ?? '',
  )
