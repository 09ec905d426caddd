import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createServices } from './services.server.ts'

// The embedded mode is one process (README, "Deploying"): a second server started on a data
// folder whose database another running process has open is refused before it opens it.

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

describe('starting on the embedded database', () => {
  it('is refused while another running process has the same folder open, and nothing is opened', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hallil-services-'))
    folders.push(dataDir)
    // A live process other than this one, named in the lock as the server that opened the folder.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' })
    try {
      writeFileSync(path.join(dataDir, 'db.lock'), `${other.pid}\n`)
      await expect(createServices({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' })).rejects.toThrow(
        `is open in process ${other.pid}: the embedded mode runs as one process`,
      )
      expect(existsSync(path.join(dataDir, 'db'))).toBe(false)
    } finally {
      other.kill()
    }
  })
})
