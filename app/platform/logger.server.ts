import pino from 'pino'

export type Logger = pino.Logger

/**
 * An error as it may be logged: its kind, code and stack frames. A failed query's values never
 * are: drizzle's DrizzleQueryError puts them in its message ("params: a@b.sa,…": emails, names,
 * hashes, a workbook's students) and PostgreSQL's errors name them in `detail` ("Key (email)=(…)")
 * or in the message ("invalid input syntax for type uuid: \"…\""). For those, the SQL with its
 * placeholders and the database's code, constraint and table are kept instead.
 */
export function errorForLog(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error }
  const e = error as Error & {
    code?: unknown
    constraint?: unknown
    table?: unknown
    severity?: unknown
    query?: unknown
    params?: unknown
  }
  const fromDatabase = 'params' in e || typeof e.severity === 'string'
  const out: Record<string, unknown> = { type: e.name }
  if (typeof e.query === 'string') out.query = e.query.slice(0, 500)
  if (!fromDatabase) out.message = e.message.slice(0, 500)
  if (typeof e.code === 'string' || typeof e.code === 'number') out.errorCode = e.code // not `code`: the redact list hides that name
  for (const key of ['constraint', 'table'] as const) if (typeof e[key] === 'string') out[key] = e[key]
  // The frames only: the stack's first line repeats the message.
  if (e.stack)
    out.stack = e.stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .slice(0, 15)
      .join('\n')
  if (e.cause !== undefined && depth < 3) out.cause = errorForLog(e.cause, depth + 1)
  return out
}

/**
 * Structured logs. Callers log ids, paths without query strings, statuses and timings:
 * never names, emails, phone numbers, codes or uploaded content. The redact list is a
 * second line of defence for fields that slip through. `destination` is for tests that
 * read what is logged.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: errorForLog },
    redact: {
      paths: [
        'email',
        'name',
        'phone',
        'password',
        'code',
        'token',
        '*.email',
        '*.name',
        '*.phone',
        '*.password',
        '*.code',
        '*.token',
        'headers.cookie',
        'headers.authorization',
      ],
      censor: '[redacted]',
    },
  }
  return destination ? pino(options, destination) : pino(options)
}
