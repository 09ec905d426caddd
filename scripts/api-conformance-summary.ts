// How much of the OpenAPI document the API tests checked: run the tests with
// API_CONFORMANCE_LOG=<a new file> (tests/api-conformance.ts appends one line per conforming answer; a
// non-conforming one fails its test), then
//
//   npx tsx scripts/api-conformance-summary.ts <file>
//
// prints the answers checked, the operations and (operation, status) pairs they covered, and the
// documented operations no test reached.
import { readFileSync } from 'node:fs'
import { apiContracts } from '../server/http/api/index.ts'
import { buildOpenApiDocument } from '../server/http/api/openapi.ts'

const file = process.argv[2]
if (!file) {
  console.error('usage: tsx scripts/api-conformance-summary.ts <API_CONFORMANCE_LOG file>')
  process.exit(2)
}
type Line = { operation: string; status: number }
const lines = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Line)
const operations = new Set(lines.map((l) => l.operation))
const pairs = new Set(lines.map((l) => `${l.operation} ${l.status}`))

const doc = buildOpenApiDocument(apiContracts())
const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
const documentedPairs = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, op]) =>
    Object.keys((op as { responses: object }).responses).map((status) => `${method.toUpperCase()} ${path} ${status}`),
  ),
)
const unreached = documented.filter((op) => !operations.has(op))

console.log(`answers checked and conforming: ${lines.length}`)
console.log(`operations covered: ${documented.filter((op) => operations.has(op)).length} of ${documented.length} documented`)
console.log(
  `(operation, status) pairs covered: ${documentedPairs.filter((p) => pairs.has(p)).length} of ${documentedPairs.length} documented`,
)
console.log(`statuses seen: ${[...new Set(lines.map((l) => l.status))].sort().join(', ')}`)
if (unreached.length) console.log(`operations no test reached:\n  ${unreached.join('\n  ')}`)
const undocumented = [...operations].filter((op) => op.endsWith('(undocumented)'))
if (undocumented.length) console.log(`undocumented paths answered (404 checked):\n  ${undocumented.join('\n  ')}`)
