import { randomUUID } from 'node:crypto'
import sharp from 'sharp'
import { DomainError } from '#app/lib/errors.ts'
import type { FileStore } from '#app/platform/files.server.ts'

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024
export const AVATAR_MAX_PIXELS = 25_000_000
const AVATAR_SIZE = 256
/** A school's logo keeps its shape, within this box (printed about 2.5 cm wide at most). */
const LOGO_BOX = 512

/** PNG, JPEG or WebP by their first bytes, whatever the file is called. */
export function imageTypeOf(data: Uint8Array): 'png' | 'jpeg' | 'webp' | null {
  if (data.length >= 8 && data[0] === 0x89 && data[1] === 0x50 && data[2] === 0x4e && data[3] === 0x47) return 'png'
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg'
  if (
    data.length >= 12 &&
    String.fromCharCode(...data.subarray(0, 4)) === 'RIFF' &&
    String.fromCharCode(...data.subarray(8, 12)) === 'WEBP'
  )
    return 'webp'
  return null
}

export type StoreAvatarOptions = { files: FileStore; data: Uint8Array }

/**
 * Checks a profile picture (type by content, 2 MB, 25 megapixels), re-encodes it as a square
 * WebP without metadata, stores it and returns its key.
 */
export async function storeAvatar({ files, data }: StoreAvatarOptions): Promise<string> {
  if (data.length === 0) throw new DomainError(422, 'accounts.errors.avatarType', { avatar: ['accounts.errors.avatarType'] })
  if (data.length > AVATAR_MAX_BYTES) throw new DomainError(422, 'accounts.errors.avatarSize', { avatar: ['accounts.errors.avatarSize'] })
  if (!imageTypeOf(data)) throw new DomainError(422, 'accounts.errors.avatarType', { avatar: ['accounts.errors.avatarType'] })
  let output: Buffer
  try {
    // limitInputPixels makes sharp refuse a decompression bomb before decoding it.
    const image = sharp(data, { limitInputPixels: AVATAR_MAX_PIXELS, failOn: 'error' })
    const meta = await image.metadata()
    if (!meta.width || !meta.height) throw new Error('no dimensions')
    output = await image.rotate().resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' }).webp({ quality: 82 }).toBuffer()
  } catch (error) {
    const tooBig = error instanceof Error && /pixel limit/i.test(error.message)
    const key = tooBig ? 'accounts.errors.avatarPixels' : 'accounts.errors.avatarType'
    throw new DomainError(422, key, { avatar: [key] })
  }
  const key = `avatars/${randomUUID()}.webp`
  await files.put(key, output)
  return key
}

/**
 * Checks a school's logo by the profile picture's rules (type by content, 2 MB, 25 megapixels),
 * re-encodes it as WebP without metadata, its shape kept within 512 px, stores it and returns its
 * key. The errors name the `logo` field.
 */
export async function storeSchoolLogo(files: FileStore, data: Uint8Array): Promise<string> {
  const refuse = (key: string) => new DomainError(422, key, { logo: [key] })
  if (data.length === 0 || !imageTypeOf(data)) throw refuse('accounts.errors.logoType')
  if (data.length > AVATAR_MAX_BYTES) throw refuse('accounts.errors.logoSize')
  let output: Buffer
  try {
    const image = sharp(data, { limitInputPixels: AVATAR_MAX_PIXELS, failOn: 'error' })
    const meta = await image.metadata()
    if (!meta.width || !meta.height) throw new Error('no dimensions')
    output = await image.rotate().resize(LOGO_BOX, LOGO_BOX, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 90 }).toBuffer()
  } catch (error) {
    const tooBig = error instanceof Error && /pixel limit/i.test(error.message)
    throw refuse(tooBig ? 'accounts.errors.logoPixels' : 'accounts.errors.logoType')
  }
  const key = `logos/${randomUUID()}.webp`
  await files.put(key, output)
  return key
}
