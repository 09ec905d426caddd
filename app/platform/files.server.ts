import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'

/** Stored files (profile pictures, test images): a local folder now, object storage later. */
export type FileStore = {
  put(key: string, data: Buffer): Promise<void>
  get(key: string): Promise<Buffer | null>
  remove(key: string): Promise<void>
}

const safeKey = /^[a-z0-9-]+\/[A-Za-z0-9_-]+\.[a-z0-9]+$/

export function createLocalFileStore(root: string): FileStore {
  const resolve = (key: string) => {
    if (!safeKey.test(key)) throw new Error('invalid file key')
    return path.join(root, key)
  }
  return {
    async put(key, data) {
      const file = resolve(key)
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(file, data, { mode: 0o600 })
    },
    async get(key) {
      try {
        return await readFile(resolve(key))
      } catch {
        return null
      }
    },
    async remove(key) {
      await rm(resolve(key), { force: true })
    },
  }
}
