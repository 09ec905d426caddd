// FILE_STORE_URL's forms, read by the environment (env.server.ts) without loading the S3 client.

/** Where the files go: `FILE_STORE_URL=s3://bucket[/prefix]?endpoint=…&region=…&forcePathStyle=…`. */
export type S3Location = {
  bucket: string
  /** Inside the bucket, before every key: `hallil/` for `s3://bucket/hallil`; empty by default. */
  prefix: string
  /** An S3-compatible service (MinIO, Cloudflare R2, Wasabi…); unset: AWS for the region. */
  endpoint?: string
  region: string
  forcePathStyle: boolean
}

export type S3Credentials = { accessKeyId: string; secretAccessKey: string }

/** Reads an `s3://` address; throws a sentence naming what is wrong. */
export function parseS3Url(value: string): S3Location {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error('must be s3://bucket?endpoint=…&region=…')
  }
  if (url.protocol !== 's3:') throw new Error('must start with s3://')
  const bucket = url.hostname
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error('must name a bucket: s3://bucket')
  const endpoint = url.searchParams.get('endpoint') || undefined
  if (endpoint && !/^https?:\/\/[^/?#]+\/?$/.test(endpoint)) throw new Error('endpoint must be an http:// or https:// address with no path')
  const style = url.searchParams.get('forcePathStyle')
  if (style !== null && !['true', 'false'].includes(style)) throw new Error('forcePathStyle must be true or false')
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '')
  return {
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region: url.searchParams.get('region') || 'us-east-1',
    // Most S3-compatible services want the bucket in the path; AWS itself the bucket's host name.
    forcePathStyle: style === null ? Boolean(endpoint) : style === 'true',
  }
}
