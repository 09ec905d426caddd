import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createLocalFileStore } from '#app/platform/files.server.ts'
import { domainErrorOf } from '#tests/factories.ts'
import { AVATAR_MAX_BYTES, AVATAR_MAX_PIXELS, imageTypeOf, storeAvatar } from './avatar.server.ts'

const files = () => createLocalFileStore(mkdtempSync(path.join(tmpdir(), 'hallil-avatar-')))
const picture = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 15, g: 93, b: 82 } } })
const bytes = (...values: number[]) => Uint8Array.from(values)

describe('imageTypeOf', () => {
  it('recognises PNG, JPEG and WebP by their first bytes', async () => {
    expect(imageTypeOf(await picture(4, 4).png().toBuffer())).toBe('png')
    expect(imageTypeOf(await picture(4, 4).jpeg().toBuffer())).toBe('jpeg')
    expect(imageTypeOf(await picture(4, 4).webp().toBuffer())).toBe('webp')
  })

  it('refuses anything else, whatever it is called', async () => {
    expect(imageTypeOf(new TextEncoder().encode('just some text, saved as photo.png'))).toBeNull()
    expect(imageTypeOf(await picture(4, 4).gif().toBuffer())).toBeNull()
    expect(imageTypeOf(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
    expect(imageTypeOf(bytes(0x89, 0x50, 0x4e))).toBeNull()
    expect(imageTypeOf(bytes(0xff, 0xd8))).toBeNull()
    expect(imageTypeOf(new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt '))).toBeNull()
    expect(imageTypeOf(new Uint8Array())).toBeNull()
  })
})

describe('storeAvatar', () => {
  it.each([
    ['PNG', () => picture(640, 480).png().toBuffer()],
    ['JPEG', () => picture(300, 900).jpeg().toBuffer()],
    ['WebP', () => picture(256, 256).webp().toBuffer()],
  ])('stores a %s as a 256×256 WebP', async (_, make) => {
    const store = files()
    const key = await storeAvatar({ files: store, data: await make() })
    expect(key).toMatch(/^avatars\/[0-9a-f-]{36}\.webp$/)
    const stored = await store.get(key)
    const meta = await sharp(stored!).metadata()
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 })
  })

  it('drops the EXIF metadata of a photo', async () => {
    const store = files()
    const photo = await picture(400, 300)
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret', Artist: 'Noura' } } })
      .toBuffer()
    expect((await sharp(photo).metadata()).exif).toBeDefined()
    const stored = await store.get(await storeAvatar({ files: store, data: photo }))
    const meta = await sharp(stored!).metadata()
    expect(meta.exif).toBeUndefined()
    expect(meta.icc).toBeUndefined()
    expect(meta.xmp).toBeUndefined()
    expect(stored!.includes('secret')).toBe(false)
  })

  it('refuses a text file named .png', async () => {
    const error = await domainErrorOf(storeAvatar({ files: files(), data: new TextEncoder().encode('this is not a picture at all') }))
    expect(error).toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.avatarType',
      fields: { avatar: ['accounts.errors.avatarType'] },
    })
  })

  it('refuses an empty file and a truncated image', async () => {
    await expect(storeAvatar({ files: files(), data: new Uint8Array() })).rejects.toMatchObject({
      messageKey: 'accounts.errors.avatarType',
    })
    const whole = await picture(200, 200).png().toBuffer()
    await expect(storeAvatar({ files: files(), data: whole.subarray(0, 60) })).rejects.toMatchObject({
      messageKey: 'accounts.errors.avatarType',
    })
  })

  it('refuses a file over 2 MB before looking at it', async () => {
    expect(AVATAR_MAX_BYTES).toBe(2 * 1024 * 1024)
    const big = new Uint8Array(AVATAR_MAX_BYTES + 1)
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const error = await domainErrorOf(storeAvatar({ files: files(), data: big }))
    expect(error).toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.avatarSize',
      fields: { avatar: ['accounts.errors.avatarSize'] },
    })
  })

  it('refuses a small file that would decode to more than 25 megapixels', async () => {
    const bomb = await picture(6000, 5000).png({ compressionLevel: 9 }).toBuffer()
    expect(bomb.length).toBeLessThan(AVATAR_MAX_BYTES)
    expect(6000 * 5000).toBeGreaterThan(AVATAR_MAX_PIXELS)
    const error = await domainErrorOf(storeAvatar({ files: files(), data: bomb }))
    expect(error).toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.avatarPixels',
      fields: { avatar: ['accounts.errors.avatarPixels'] },
    })
  })
})
