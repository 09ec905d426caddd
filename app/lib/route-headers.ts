import type { HeadersArgs } from 'react-router'

/**
 * A page route's `headers` export for actions and loaders that may answer 429. React Router
 * keeps only the Set-Cookie of a page's action or loader answer unless its route says which
 * headers to keep, so without this a form sent before React takes over (or without it) got its
 * 429 with no Retry-After.
 */
export function keepRetryAfter({ parentHeaders, loaderHeaders, actionHeaders, errorHeaders }: HeadersArgs): Headers {
  const headers = new Headers(parentHeaders)
  for (const source of [loaderHeaders, actionHeaders, errorHeaders]) {
    const wait = source?.get('Retry-After')
    if (wait) headers.set('Retry-After', wait)
  }
  return headers
}
