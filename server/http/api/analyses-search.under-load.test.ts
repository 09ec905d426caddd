import { afterAll, describe, expect, it } from 'vitest'
import { closeAnalysisWorkers } from '#app/features/analyses/index.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { measureSearchUnderLoad } from '#tests/search-under-load.ts'

// Issue #15: a 100,000-row upload and the student searches on it never hold up anyone else.
// The workbook is read in a worker thread and its students written in batches; a search reads
// only the students it finds, through the name index.
//
// The goals are wall-clock (a search ≤ 50 ms, /healthz under 100 ms while eight run), and
// `npm run bench` reports them so. Here the machine's cores are shared with other test files:
// the probes are asserted on the nine in ten the neighbours leave alone, with the slowest kept
// far below what reading the whole analysis on the event loop cost (0.5–0.8 s a search).

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

afterAll(() => closeAnalysisWorkers())

const ms = (value: number) => Math.round(value)
const quantile = (list: number[], q: number) => list.toSorted((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * q))] ?? 0

describe('a 100,000-row absence analysis', () => {
  it('uploads, and is searched one at a time and eight at once, while /healthz and another teacher keep answering', async () => {
    const f = await measureSearchUnderLoad(testServices(testDb()))
    console.info(
      `search under load: upload of ${f.rows} rows ${ms(f.uploadMs)} ms, /healthz during it p90 ${ms(quantile(f.uploadHealthzMs, 0.9))} max ${ms(Math.max(...f.uploadHealthzMs))} ms (${f.uploadHealthzMs.length} probes); ` +
        `search median ${ms(quantile(f.searchMs, 0.5))} ms max ${ms(Math.max(...f.searchMs))} ms; eight at once: slowest ${ms(Math.max(...f.concurrentSearchMs))} ms, /healthz max ${ms(Math.max(...f.concurrentHealthzMs))} ms`,
    )
    expect(f.uploadStatus).toBe(201)
    // Every search found its student, and only students of that name.
    expect(f.searchesFound).toHaveLength(16 + 8)
    expect(f.searchesFound.every(Boolean)).toBe(true)
    // Enough probes to have seen the whole upload.
    expect(f.uploadHealthzMs.length).toBeGreaterThanOrEqual(5)
    for (const probes of [f.uploadHealthzMs, f.uploadProfileMs]) {
      expect(quantile(probes, 0.9)).toBeLessThan(200)
      expect(Math.max(...probes)).toBeLessThan(1000)
    }
    expect(quantile(f.searchMs, 0.5)).toBeLessThan(200)
    expect(Math.max(...f.concurrentHealthzMs)).toBeLessThan(500)
  }, 180_000)
})
