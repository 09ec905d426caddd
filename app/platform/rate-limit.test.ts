import { describe, expect, it } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { hitRateLimit, pruneRateLimits } from './rate-limit.server.ts'
import { rateLimits } from './db/schema.ts'

const testDb = setupTestDatabase()

describe('hitRateLimit', () => {
  it('allows up to the limit in a window, then tells how long to wait', async () => {
    const now = new Date('2026-01-01T00:00:00Z')
    const results = []
    for (let i = 0; i < 4; i++) results.push(await hitRateLimit({ db: testDb().db, key: 'k1', limit: 3, windowSeconds: 60, now }))
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false])
    expect(results[3]?.retryAfterSeconds).toBe(60)
    const later = await hitRateLimit({ db: testDb().db, key: 'k1', limit: 3, windowSeconds: 60, now: new Date(now.getTime() + 45_000) })
    expect(later.allowed).toBe(false)
    expect(later.retryAfterSeconds).toBe(15)
  })

  it('starts a new window once the old one has passed', async () => {
    const now = new Date('2026-01-01T00:00:00Z')
    for (let i = 0; i < 3; i++) await hitRateLimit({ db: testDb().db, key: 'k2', limit: 2, windowSeconds: 10, now })
    const next = await hitRateLimit({ db: testDb().db, key: 'k2', limit: 2, windowSeconds: 10, now: new Date(now.getTime() + 10_000) })
    expect(next.allowed).toBe(true)
    expect(next.remaining).toBe(1)
  })

  it('counts concurrent hits exactly', async () => {
    const now = new Date('2026-01-01T00:00:00Z')
    const results = await Promise.all(
      Array.from({ length: 20 }, () => hitRateLimit({ db: testDb().db, key: 'k3', limit: 5, windowSeconds: 60, now })),
    )
    expect(results.filter((r) => r.allowed)).toHaveLength(5)
  })

  it('prunes expired windows', async () => {
    await pruneRateLimits({ db: testDb().db, now: new Date('2027-01-01T00:00:00Z') })
    expect(await testDb().db.select().from(rateLimits)).toHaveLength(0)
  })
})
