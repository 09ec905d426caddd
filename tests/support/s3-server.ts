// An S3-compatible server on loopback (s3rver, objects in a temporary folder) for the tests of the
// S3 file store: real HTTP, real signatures, the AWS SDK unchanged.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'

/** s3rver's fixed keys: it checks each request's signature against them. */
export const S3RVER_KEYS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' } as const

export type S3TestServer = {
  /** FILE_STORE_URL for a bucket of it (`prefix` inside the bucket, when given). */
  url(prefix?: string): string
  /** FILE_STORE_URL and the keys, for loadEnv or testServices. */
  env(prefix?: string): Record<string, string>
  close(): Promise<void>
}

export async function startS3Server(bucket = 'hallil'): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(tmpdir(), 'hallil-s3-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] })
  const { port } = await server.run()
  const url = (prefix = '') => `s3://${bucket}${prefix ? `/${prefix}` : ''}?endpoint=http://127.0.0.1:${port}&region=us-east-1`
  return {
    url,
    env: (prefix) => ({ FILE_STORE_URL: url(prefix), ...S3RVER_KEYS }),
    async close() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
