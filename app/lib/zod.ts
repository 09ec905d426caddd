// oxlint-disable-next-line no-restricted-imports -- this is the one module that may
import { z } from 'zod'

// The one import of zod for code that builds schemas. Zod compiles its object parsers with
// `new Function` where it may, and finds out by trying it once. In the browser our
// Content-Security-Policy forbids eval (scripts by nonce only); zod catches the refusal, but the
// browser still reports a CSP violation (a DevTools issue, a `securitypolicyviolation` event)
// on every page that loads a form schema. Jitless, zod skips the probe and parses without
// compiled code, which for our small forms costs nothing one could notice. The server has no
// CSP and keeps the compiled parsers.
if (typeof document !== 'undefined') z.config({ jitless: true })

export { z }
