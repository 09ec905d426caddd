import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { DomainError } from '#app/lib/errors.ts'
import { isUuid } from '#app/lib/ids.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { examImages } from '#app/platform/db/schema.ts'
import { storeThenRecord, type FileStore } from '#app/platform/files.server.ts'
import { hitRateLimit } from '#app/platform/rate-limit.server.ts'
import { pruneExamImages } from './store.server.ts'

export const EXAM_IMAGE_MAX_BYTES = 5 * 1024 * 1024
export const EXAM_IMAGE_MAX_PIXELS = 25_000_000
/** Uploads per teacher per hour: a test has at most 100 questions, each with at most one image. */
export const EXAM_IMAGE_UPLOADS_PER_HOUR = 120
/** Enough for a full-width figure at 300 dpi on A4 (180 mm ≈ 2126 px); larger only weighs the PDF down. */
const LONG_SIDE = 2400
/** An upload not saved in any test within a day is removed at the teacher's next upload. */
const UNUSED_FOR_MS = 24 * 60 * 60 * 1000

/** PNG, JPEG or WebP by their first bytes, whatever the file is called or claims to be. */
export function examImageTypeOf(data: Uint8Array): 'png' | 'jpeg' | 'webp' | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...data.subarray(from, to))
  if (data.length >= 8 && data[0] === 0x89 && ascii(1, 4) === 'PNG' && data[4] === 0x0d && data[5] === 0x0a) return 'png'
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg'
  if (data.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp'
  return null
}

const invalid = (key: string, status: 413 | 422 = 422) => new DomainError(status, key, { file: [key] })

export type StoredExamImage = { id: string; width: number; height: number; contentType: 'image/png' | 'image/jpeg' }

/**
 * Re-encodes an upload: rotated upright, metadata (GPS, camera) dropped, at most 2400 px on the
 * long side. Drawings and anything transparent stay lossless PNG; photographs become JPEG, which
 * the PDF embeds as is.
 */
async function reencode(data: Uint8Array, type: 'png' | 'jpeg' | 'webp') {
  // limitInputPixels makes sharp refuse a decompression bomb from its header, before decoding.
  const image = sharp(data, { limitInputPixels: EXAM_IMAGE_MAX_PIXELS, failOn: 'error' }).rotate()
  const meta = await image.metadata()
  if (!meta.width || !meta.height) throw new Error('no dimensions')
  const resized = image.resize(LONG_SIDE, LONG_SIDE, { fit: 'inside', withoutEnlargement: true })
  const isLossless = type === 'png' || (type === 'webp' && meta.hasAlpha === true)
  const { data: bytes, info } = isLossless
    ? await resized.png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer({ resolveWithObject: true })
    : await resized.flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: true }).toBuffer({ resolveWithObject: true })
  return { bytes, width: info.width, height: info.height, contentType: isLossless ? ('image/png' as const) : ('image/jpeg' as const) }
}

export type StoreExamImageOptions = { db: Db; files: FileStore; userId: string; data: Uint8Array; now?: Date }

/** `POST uploads/images` and the editor's upload: checks, re-encodes and stores one question image. */
export async function storeExamImage({ db, files, userId, data, now = new Date() }: StoreExamImageOptions): Promise<StoredExamImage> {
  const limit = await hitRateLimit({ db, key: `exam-image:${userId}`, limit: EXAM_IMAGE_UPLOADS_PER_HOUR, windowSeconds: 3600, now })
  if (!limit.allowed) throw new DomainError(429, 'common.errors.tooManyRequests', undefined, limit.retryAfterSeconds)
  if (data.length === 0) throw invalid('exams.errors.imageMissing')
  if (data.length > EXAM_IMAGE_MAX_BYTES) throw invalid('exams.errors.imageSize', 413)
  const type = examImageTypeOf(data)
  if (!type) throw invalid('exams.errors.imageType')
  let encoded: Awaited<ReturnType<typeof reencode>>
  try {
    encoded = await reencode(data, type)
  } catch (error) {
    const isTooLarge = error instanceof Error && /pixel limit/i.test(error.message)
    throw invalid(isTooLarge ? 'exams.errors.imagePixels' : 'exams.errors.imageType')
  }
  const id = randomUUID()
  const fileKey = `exam-images/${id}.${encoded.contentType === 'image/png' ? 'png' : 'jpg'}`
  // The file first, then its row: a row never points at a file that was not stored.
  await storeThenRecord({
    files,
    key: fileKey,
    data: encoded.bytes,
    record: () =>
      db.insert(examImages).values({
        id,
        userId,
        fileKey,
        contentType: encoded.contentType,
        width: encoded.width,
        height: encoded.height,
        bytes: encoded.bytes.length,
      }),
  })
  await pruneExamImages({ db, files, userId, olderThan: new Date(now.getTime() - UNUSED_FOR_MS) })
  return { id, width: encoded.width, height: encoded.height, contentType: encoded.contentType }
}

export type ExamImageFile = { id: string; contentType: 'image/png' | 'image/jpeg'; width: number; height: number; data: Buffer }

export type ReadExamImageOptions = { db: Db; files: FileStore; userId: string; id: string }

/** One of the teacher's images with its bytes; another teacher's (or a removed one) is not found. */
export async function readExamImage({ db, files, userId, id }: ReadExamImageOptions): Promise<ExamImageFile | null> {
  if (!isUuid(id)) return null
  const [row] = await db
    .select()
    .from(examImages)
    .where(and(eq(examImages.id, id), eq(examImages.userId, userId)))
    .limit(1)
  if (!row) return null
  const data = await files.get(row.fileKey)
  return data ? { id: row.id, contentType: row.contentType, width: row.width, height: row.height, data } : null
}

export type ReadExamImagesOptions = { db: Db; files: FileStore; userId: string; ids: readonly string[] }

/** The images a test shows, read once for its PDF: id → file. Missing ones are left out (the PDF prints without them). */
export async function readExamImages({ db, files, userId, ids }: ReadExamImagesOptions): Promise<Map<string, ExamImageFile>> {
  const out = new Map<string, ExamImageFile>()
  for (const id of new Set(ids)) {
    const image = await readExamImage({ db, files, userId, id })
    if (image) out.set(id, image)
  }
  return out
}

/** The image's answer: its bytes, private to the teacher's browser, never sniffed as something else. */
export function examImageResponse(image: ExamImageFile): Response {
  return new Response(new Uint8Array(image.data), {
    headers: {
      'Content-Type': image.contentType,
      'Cache-Control': 'private, max-age=86400, immutable',
      'Content-Disposition': 'inline',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}
