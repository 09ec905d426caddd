import { describe, expect, it } from 'vitest'
import { measureUploadMemory } from '#tests/upload-memory.ts'

// Issue #15: no one upload of the bad-file corpus takes the whole server process past 512 MB. The
// built server runs on the embedded defaults (its database inside the process) and every file of
// the corpus is sent to it, then daily records of 100,000 rows and the largest the limits let
// through (a 10 MB file, 320,000 rows): after each, the process's peak resident size since the
// upload began is read from /proc. Runs alone, after the build (scripts/test.js).

const LIMIT_MB = 512

describe('what one upload costs the server process in memory', () => {
  it('stays under 512 MB for every file of the bad-file corpus, 100,000 daily rows and the largest daily workbook within the limits', async () => {
    const { startMb, uploads } = await measureUploadMemory()
    console.info(`upload memory: idle ${startMb} MB; ${uploads.map((u) => `${u.name} ${u.status} peak ${u.peakMb} MB`).join('; ')}`)
    // Each file got its answer (a refusal with its status, or the analysis).
    expect(uploads.map((u) => ({ name: u.name, status: u.status }))).toEqual(uploads.map((u) => ({ name: u.name, status: u.expected })))
    for (const u of uploads)
      expect({ name: u.name, peakMb: u.peakMb, isUnder: u.peakMb < LIMIT_MB }).toEqual({
        name: u.name,
        peakMb: u.peakMb,
        isUnder: true,
      })
  }, 300_000)
})
