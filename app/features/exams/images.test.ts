import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { examImages } from '#app/platform/db/schema.ts'
import { hitRateLimit } from '#app/platform/rate-limit.server.ts'
import { domainErrorOf } from '#tests/factories.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { EXAM_IMAGE_MAX_BYTES, EXAM_IMAGE_UPLOADS_PER_HOUR, examImageTypeOf, readExamImage, storeExamImage } from './images.server.ts'
import { teacher } from '#tests/exams.ts'

const testDb = setupTestDatabase()

const solid = (width: number, height: number, alpha = false) =>
  sharp({ create: { width, height, channels: alpha ? 4 : 3, background: alpha ? { r: 15, g: 93, b: 82, alpha: 0.5 } : '#0f5d52' } })

async function setup() {
  const ctx = testContext(testDb())
  const { user } = await teacher(ctx)
  const store = (data: Uint8Array) => storeExamImage({ db: ctx.db, files: ctx.files, userId: user.id, data })
  return { ctx, user, store }
}

describe('question images', () => {
  it('recognises PNG, JPEG and WebP by their content only', async () => {
    expect(examImageTypeOf(await solid(2, 2).png().toBuffer())).toBe('png')
    expect(examImageTypeOf(await solid(2, 2).jpeg().toBuffer())).toBe('jpeg')
    expect(examImageTypeOf(await solid(2, 2).webp().toBuffer())).toBe('webp')
    expect(examImageTypeOf(await solid(2, 2).gif().toBuffer())).toBeNull()
    expect(examImageTypeOf(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
    expect(examImageTypeOf(new Uint8Array())).toBeNull()
  })

  it('stores drawings as PNG and photographs as JPEG, upright, without metadata, at most 2400 px', async () => {
    const { ctx, user, store } = await setup()
    const drawing = await store(await solid(300, 200).png().toBuffer())
    expect(drawing).toMatchObject({ contentType: 'image/png', width: 300, height: 200 })
    const transparentWebp = await store(await solid(50, 40, true).webp().toBuffer())
    expect(transparentWebp.contentType).toBe('image/png')
    // A phone photo: EXIF orientation 6 (turned 90°), a GPS position, larger than needed.
    const photo = await solid(4000, 3000)
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '24/1 42/1 0/1' } } })
      .toBuffer()
    const stored = await store(photo)
    expect(stored).toMatchObject({ contentType: 'image/jpeg', width: 1800, height: 2400 })
    const file = await readExamImage({ db: ctx.db, files: ctx.files, userId: user.id, id: stored.id })
    const meta = await sharp(file!.data).metadata()
    expect(meta).toMatchObject({ format: 'jpeg', width: 1800, height: 2400 })
    expect(meta.exif).toBeUndefined()
    expect(meta.orientation).toBeUndefined()
  })

  it('refuses other types, empty files, more than 5 MB and more than 25 megapixels, storing nothing', async () => {
    const { ctx, user, store } = await setup()
    const cases: Array<[Uint8Array, number, string]> = [
      [await solid(10, 10).gif().toBuffer(), 422, 'exams.errors.imageType'],
      [new TextEncoder().encode('GIF89a… or a script named photo.png'), 422, 'exams.errors.imageType'],
      // A PNG header on a broken body.
      [(await solid(10, 10).png().toBuffer()).subarray(0, 40), 422, 'exams.errors.imageType'],
      [new Uint8Array(), 422, 'exams.errors.imageMissing'],
      [new Uint8Array(EXAM_IMAGE_MAX_BYTES + 1).fill(0xff), 413, 'exams.errors.imageSize'],
      // 6000 × 5000 = 30 megapixels of one colour: a few kilobytes, refused before decoding.
      [await solid(6000, 5000).png().toBuffer(), 422, 'exams.errors.imagePixels'],
    ]
    for (const [data, status, key] of cases) {
      const error = await domainErrorOf(store(data))
      expect([error.status, error.messageKey, error.fields]).toEqual([status, key, { file: [key] }])
    }
    expect(await ctx.db.select().from(examImages).where(eq(examImages.userId, user.id))).toEqual([])
  })

  it('accepts exactly 25 megapixels', async () => {
    const { store } = await setup()
    // 5000 × 5000 = 25 megapixels: allowed, and stored at 2400 px.
    const big = await solid(5000, 5000).png().toBuffer()
    expect(big.length).toBeLessThan(EXAM_IMAGE_MAX_BYTES)
    expect(await store(big)).toMatchObject({ width: 2400, height: 2400 })
  })

  it('limits uploads per teacher per hour (429 with the wait)', async () => {
    const { ctx, user, store } = await setup()
    for (let i = 0; i < EXAM_IMAGE_UPLOADS_PER_HOUR; i++)
      await hitRateLimit({ db: ctx.db, key: `exam-image:${user.id}`, limit: EXAM_IMAGE_UPLOADS_PER_HOUR, windowSeconds: 3600 })
    const error = await domainErrorOf(store(await solid(4, 4).png().toBuffer()))
    expect(error.status).toBe(429)
    expect(error.retryAfterSeconds).toBeGreaterThan(3000)
    // Another teacher is not held back.
    const other = await teacher(ctx)
    await storeExamImage({ db: ctx.db, files: ctx.files, userId: other.user.id, data: await solid(4, 4).png().toBuffer() })
  })

  it('is read back by its owner only', async () => {
    const { ctx, user, store } = await setup()
    const image = await store(await solid(8, 8).png().toBuffer())
    const other = await teacher(ctx)
    expect(await readExamImage({ db: ctx.db, files: ctx.files, userId: other.user.id, id: image.id })).toBeNull()
    expect(await readExamImage({ db: ctx.db, files: ctx.files, userId: user.id, id: 'x/../../etc' })).toBeNull()
    expect((await readExamImage({ db: ctx.db, files: ctx.files, userId: user.id, id: image.id }))?.contentType).toBe('image/png')
  })
})
