import pino from 'pino'

export type Logger = pino.Logger

/**
 * Structured logs. Callers log ids, paths without query strings, statuses and timings:
 * never names, emails, phone numbers, codes or uploaded content. The redact list is a
 * second line of defence for fields that slip through.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
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
  })
}
