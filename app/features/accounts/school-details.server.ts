import { eq } from 'drizzle-orm'
import type { SchoolStudents } from '#app/lib/constants.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { schoolDetails } from '#app/platform/db/schema.ts'
import { discardFiles, type FileStore } from '#app/platform/files.server.ts'
import { storeSchoolLogo } from './avatar.server.ts'
import type { SchoolDetailsInput } from './schemas.ts'

// The school a teacher works in, as the follow-up documents print it (issue 18; docs/follow-up-letters.md).
// Stored per teacher in school_details, the logo in the file store beside the profile pictures.

export interface SchoolDetails {
  readonly schoolName: string
  readonly educationOffice: string | null
  readonly principalName: string | null
  readonly counsellorName: string | null
  /** The logo's key in the file store (`logos/<uuid>.webp`), or null. */
  readonly logoFile: string | null
  /** Boys or girls: the letters speak of a son or a daughter, a counsellor or a counsellor (f.). */
  readonly students: SchoolStudents
}

export interface SchoolDetailsOfOptions {
  readonly db: Db
  readonly userId: string
}

/** The teacher's school details; null until she fills them in. */
export async function schoolDetailsOf({ db, userId }: SchoolDetailsOfOptions): Promise<SchoolDetails | null> {
  const [row] = await db.select().from(schoolDetails).where(eq(schoolDetails.userId, userId)).limit(1)
  if (!row) return null
  return {
    schoolName: row.schoolName,
    educationOffice: row.educationOffice,
    principalName: row.principalName,
    counsellorName: row.counsellorName,
    logoFile: row.logoFile,
    students: row.students,
  }
}

export interface SaveSchoolDetailsOptions {
  readonly db: Db
  readonly files: FileStore
  readonly userId: string
  /** Parsed by schoolDetailsSchema; absent optional fields are kept as they were. */
  readonly input: SchoolDetailsInput
  /** A new logo's bytes (checked and re-encoded here); null or empty keeps the logo. */
  readonly logo?: Uint8Array | null
}

/**
 * Saves the school details. A new logo is stored before the row and replaces the old one, whose
 * file goes once the row points at the new one; `remove_logo` without a new logo takes it off.
 */
export async function saveSchoolDetails({ db, files, userId, input, logo }: SaveSchoolDetailsOptions): Promise<SchoolDetails> {
  const before = await schoolDetailsOf({ db, userId })
  const logoFile = logo && logo.length > 0 ? await storeSchoolLogo(files, logo) : undefined
  const nextLogo = logoFile ?? (input.remove_logo ? null : (before?.logoFile ?? null))
  const values = {
    schoolName: input.school_name,
    ...(input.education_office !== undefined ? { educationOffice: input.education_office } : {}),
    ...(input.principal_name !== undefined ? { principalName: input.principal_name } : {}),
    ...(input.counsellor_name !== undefined ? { counsellorName: input.counsellor_name } : {}),
    ...(input.students !== undefined ? { students: input.students } : {}),
    logoFile: nextLogo,
  }
  try {
    await db
      .insert(schoolDetails)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: schoolDetails.userId, set: { ...values, updatedAt: new Date() } })
  } catch (error) {
    // The new logo was stored for a row that did not change: take it back.
    if (logoFile) await discardFiles({ files, keys: [logoFile] })
    throw error
  }
  if (before?.logoFile && before.logoFile !== nextLogo) await discardFiles({ files, keys: [before.logoFile] })
  const saved = await schoolDetailsOf({ db, userId })
  if (!saved) throw new Error('school details vanished')
  return saved
}

export interface RemoveSchoolLogoOptions {
  readonly db: Db
  readonly files: FileStore
  readonly userId: string
}

/** Takes the logo off the school details (the documents print without one); false when there was none. */
export async function removeSchoolLogo({ db, files, userId }: RemoveSchoolLogoOptions): Promise<boolean> {
  const before = await schoolDetailsOf({ db, userId })
  if (!before?.logoFile) return false
  await db.update(schoolDetails).set({ logoFile: null, updatedAt: new Date() }).where(eq(schoolDetails.userId, userId))
  await discardFiles({ files, keys: [before.logoFile] })
  return true
}

/** The logo's bytes for a document, or null (none, or its file is gone from the store). */
export async function schoolLogoBytes(files: FileStore, details: Pick<SchoolDetails, 'logoFile'> | null): Promise<Uint8Array | null> {
  if (!details?.logoFile) return null
  const data = await files.get(details.logoFile)
  return data ? new Uint8Array(data) : null
}
