// oxlint-disable-next-line no-restricted-imports -- this is the one module that may
import * as z from 'zod/mini'

// zod/mini for the schemas of pages that send them to the browser (the account and contact
// forms): the same rules as zod's chained API (#app/lib/zod.ts) in far fewer bytes. Jitless in
// the browser for the same reason as there: zod's `new Function` probe would be reported as a
// Content-Security-Policy violation. The setting is zod's one global configuration.
if (typeof document !== 'undefined') z.config({ jitless: true })

export { z }
