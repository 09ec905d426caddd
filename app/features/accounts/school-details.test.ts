import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { z } from '#app/lib/zod.ts'
import { fieldErrorsOf } from '#app/lib/forms.ts'
import { schoolDetails } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { accountContext, createUser, silenceOutboxHints } from '#tests/factories.ts'
import { deleteAccount } from './account-changes.server.ts'
import { removeSchoolLogo, saveSchoolDetails, schoolDetailsOf } from './school-details.server.ts'
import { schoolDetailsSchema } from './schemas.ts'

// The school details on the follow-up letters: saved per teacher, the logo checked like the
// profile picture and kept in the file store, replaced, removed, and gone with the account.

const testDb = setupTestDatabase()
silenceOutboxHints()

/** A wide PNG logo (its shape is kept, unlike a profile picture's square). */
const logoPng = (width = 600, height = 200) =>
  sharp({ create: { width, height, channels: 3, background: { r: 15, g: 93, b: 82 } } })
    .png()
    .toBuffer()
    .then((b) => new Uint8Array(b))

const parse = (input: Record<string, unknown>) => schoolDetailsSchema.parse(input)

describe('schoolDetailsSchema', () => {
  it('requires the school’s name, trims and collapses spaces, and reads an empty optional field as cleared', () => {
    expect(parse({ school_name: '  متوسطة   الملك فهد ', education_office: '', remove_logo: 'on' })).toEqual({
      school_name: 'متوسطة الملك فهد',
      education_office: null,
      remove_logo: true,
    })
    const refused = z.safeParse(schoolDetailsSchema, { school_name: '   ', principal_name: 'x'.repeat(121) })
    expect(refused.success).toBe(false)
    expect(fieldErrorsOf(refused.error!)).toEqual({
      school_name: ['accounts.errors.schoolNameRequired'],
      principal_name: ['accounts.errors.schoolTextLong'],
    })
  })
})

describe('saveSchoolDetails', () => {
  it('keeps each teacher’s own details, stores the logo as WebP in its shape, replaces and removes it', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx)
    const { user: other } = await createUser(ctx)
    const { db, files } = ctx
    expect(await schoolDetailsOf({ db, userId: user.id })).toBeNull()

    const saved = await saveSchoolDetails({
      db,
      files,
      userId: user.id,
      input: parse({ school_name: 'متوسطة عمر بن الخطاب', education_office: 'تعليم الرياض', principal_name: 'سعد العتيبي' }),
      logo: await logoPng(),
    })
    expect(saved).toMatchObject({ schoolName: 'متوسطة عمر بن الخطاب', educationOffice: 'تعليم الرياض', counsellorName: null })
    expect(saved.logoFile).toMatch(/^logos\/[0-9a-f-]{36}\.webp$/)
    const stored = await files.get(saved.logoFile!)
    // 600 × 200 within a 512 box: 512 × 171 (rounded), a WebP.
    expect(await sharp(stored!).metadata()).toMatchObject({ format: 'webp', width: 512, height: 171 })
    expect(await schoolDetailsOf({ db, userId: other.id })).toBeNull()

    // Fields left out stay; a new logo replaces the old one's file.
    const again = await saveSchoolDetails({
      db,
      files,
      userId: user.id,
      input: parse({ school_name: 'مدرسة أخرى' }),
      logo: await logoPng(100, 100),
    })
    expect(again).toMatchObject({ schoolName: 'مدرسة أخرى', educationOffice: 'تعليم الرياض', principalName: 'سعد العتيبي' })
    expect(again.logoFile).not.toBe(saved.logoFile)
    expect(await files.get(saved.logoFile!)).toBeNull()

    // Not an image: refused on the logo field, nothing changed.
    await expect(
      saveSchoolDetails({
        db,
        files,
        userId: user.id,
        input: parse({ school_name: 'x' }),
        logo: new TextEncoder().encode('not a picture'),
      }),
    ).rejects.toMatchObject({ status: 422, fields: { logo: ['accounts.errors.logoType'] } })
    expect((await schoolDetailsOf({ db, userId: user.id }))?.schoolName).toBe('مدرسة أخرى')

    // remove_logo takes it off, file and all; removing again finds none.
    const removed = await saveSchoolDetails({ db, files, userId: user.id, input: parse({ school_name: 'مدرسة أخرى', remove_logo: true }) })
    expect(removed.logoFile).toBeNull()
    expect(await files.get(again.logoFile!)).toBeNull()
    expect(await removeSchoolLogo({ db, files, userId: user.id })).toBe(false)
  })

  it('goes with the account, logo file and all', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    const saved = await saveSchoolDetails({
      db: ctx.db,
      files: ctx.files,
      userId: user.id,
      input: parse({ school_name: 'متوسطة الملك فهد' }),
      logo: await logoPng(),
    })
    await deleteAccount({ ...ctx, user, input: { password } })
    expect(await ctx.db.select().from(schoolDetails).where(eq(schoolDetails.userId, user.id))).toEqual([])
    expect(await ctx.files.get(saved.logoFile!)).toBeNull()
  })
})
