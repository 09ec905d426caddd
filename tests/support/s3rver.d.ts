// s3rver ships no types: the part of its API the tests use (tests/support/s3-server.ts).
declare module 's3rver' {
  export type S3rverOptions = {
    address?: string
    port?: number
    silent?: boolean
    directory: string
    configureBuckets?: Array<{ name: string; configs: string[] }>
  }
  export default class S3rver {
    constructor(options: S3rverOptions)
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
