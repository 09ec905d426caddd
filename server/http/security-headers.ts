import { randomBytes } from 'node:crypto'

export function newNonce(): string {
  return randomBytes(16).toString('base64')
}

/** The Content-Security-Policy of a response: scripts only from this origin or with the request's nonce. */
export type SecurityHeaderOptions = {
  nonce: string
  isDev: boolean
  isHttps: boolean
  /** Origins the page's scripts may call besides this one: a payment gateway the browser pays at. */
  connectOrigins?: readonly string[]
}

export function contentSecurityPolicy(options: SecurityHeaderOptions): string {
  const script = options.isDev ? "'self' 'unsafe-inline' 'unsafe-eval'" : `'self' 'nonce-${options.nonce}'`
  const directives = [
    "default-src 'self'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    ['connect-src', "'self'", ...(options.connectOrigins ?? []), ...(options.isDev ? ['ws:', 'wss:'] : [])].join(' '),
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ]
  if (options.isHttps) directives.push('upgrade-insecure-requests')
  return directives.join('; ')
}

export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(self)',
  }
  if (options.isHttps) headers['Strict-Transport-Security'] = 'max-age=63072000; includeSubDomains'
  return headers
}
