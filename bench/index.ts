// `npm run bench`: the project's speed figures, printed as a table.
import { benchAuth } from './auth.ts'
import { benchBilling } from './billing.ts'

const rows: Array<[string, string]> = []
const auth = await benchAuth()
rows.push([`argon2id hash (m=19456, t=2, p=1), median of 15`, `${auth.hashMedianMs.toFixed(1)} ms`])
rows.push([`login through /api/v1/auth/login (${auth.database}, 8 concurrent, ${auth.logins} requests, ${auth.loginsOk} ok)`, `${auth.loginsPerSecond.toFixed(1)} /s`])

const billing = await benchBilling()
rows.push([`settlePayment: fetch, checks, paid + subscription + invoice + notification (${billing.database}), median of 30`, `${billing.settleMedianMs.toFixed(1)} ms`])
rows.push([`invoice PDF (typst, warm), median of 30`, `${billing.pdfMedianMs.toFixed(1)} ms`])

const width = Math.max(...rows.map(([k]) => k.length))
console.log(`\n${'measure'.padEnd(width)}  value`)
console.log(`${'-'.repeat(width)}  ${'-'.repeat(12)}`)
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`)
