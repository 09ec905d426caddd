import type { FieldErrors } from './forms.ts'

/**
 * A failure a teacher can act on, thrown by domain functions and turned into a 4xx answer by
 * the API and into a form error by pages. `messageKey` is a translation key.
 */
export class DomainError extends Error {
  constructor(
    public readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 502 | 503,
    public readonly messageKey: string,
    public readonly fields?: FieldErrors,
    public readonly retryAfterSeconds?: number,
  ) {
    super(messageKey)
    this.name = 'DomainError'
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError
}
