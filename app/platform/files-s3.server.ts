import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ServiceException,
} from '@aws-sdk/client-s3'
import type { S3Credentials, S3Location } from './file-store-url.server.ts'
import { assertFileKey, isFileKey, sha256Hex, type FileStore } from './files.server.ts'

const isMissing = (error: unknown) => {
  const e = error as Partial<S3ServiceException>
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404
}

/**
 * Files as objects in a bucket through the S3 API. Every process pointed at the bucket sees every
 * file. Without credentials the SDK's own chain is used (an instance role, AWS_* variables).
 */
export function createS3FileStore(location: S3Location, credentials?: S3Credentials): FileStore {
  const client = new S3Client({
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    // A copy: the SDK marks the object it is given.
    ...(credentials ? { credentials: { ...credentials } } : {}),
    // A store that does not answer should fail the request in seconds, not hold it for minutes.
    requestHandler: { connectionTimeout: 3000, requestTimeout: 30_000 },
    maxAttempts: 2,
    // Checksums only where S3 requires them: several S3-compatible services refuse the newer ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  const objectKey = (key: string) => {
    assertFileKey(key)
    return `${location.prefix}${key}`
  }
  return {
    kind: 's3',
    async put(key, data) {
      await client.send(
        new PutObjectCommand({
          Bucket: location.bucket,
          Key: objectKey(key),
          Body: data,
          ContentLength: data.length,
          ContentType: 'application/octet-stream',
          Metadata: { sha256: sha256Hex(data) },
        }),
      )
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: location.bucket, Key: objectKey(key) }))
        if (!answer.Body) return null
        return Buffer.from(await answer.Body.transformToByteArray())
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: location.bucket, Key: objectKey(key) }))
    },
    async *list() {
      let token: string | undefined
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: location.bucket, Prefix: location.prefix || undefined, ContinuationToken: token }),
        )
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(location.prefix.length)
          if (key && isFileKey(key)) yield key
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
    },
  }
}
