import { asc, eq } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { packages } from '#app/platform/db/schema.ts'

/** `99`, `99.5`, `SAR 99.00`, `99.00 ر.س` → halalas; a bare integer over 1000 is taken as halalas already. */
export function parsePrice(text: string): number | null {
  const cleaned = text.replace(/SAR|ر\.س|,/gi, '').trim()
  if (/^\d+$/.test(cleaned) && !/SAR|ر\.س|\./i.test(text) && Number(cleaned) >= 1000) return Number(cleaned)
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(cleaned)
  if (!match) return null
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

export type ListAllPackagesOptions = { db: Db }

export async function listAllPackages({ db }: ListAllPackagesOptions) {
  return db.select().from(packages).orderBy(asc(packages.sortOrder), asc(packages.id))
}

export type PackageFields = {
  slug: string
  nameAr: string
  nameEn: string
  descriptionAr?: string
  descriptionEn?: string
  priceHalalas: number
  months: number
  isBestSeller?: boolean
  sortOrder?: number
}

export type AddPackageOptions = { db: Db; fields: PackageFields }

/** Adds a package; marking it best seller unmarks the others (one best seller at a time). */
export async function addPackage({ db, fields }: AddPackageOptions) {
  return db.transaction(async (tx) => {
    if (fields.isBestSeller) await tx.update(packages).set({ isBestSeller: false })
    const [row] = await tx.insert(packages).values(fields).returning()
    return row
  })
}

export type UpdatePackageOptions = { db: Db; slug: string; fields: Partial<PackageFields> & { isActive?: boolean } }

export async function updatePackage({ db, slug, fields }: UpdatePackageOptions) {
  return db.transaction(async (tx) => {
    if (fields.isBestSeller) await tx.update(packages).set({ isBestSeller: false })
    const [row] = await tx
      .update(packages)
      .set({ ...fields, updatedAt: new Date() })
      .where(eq(packages.slug, slug))
      .returning()
    return row ?? null
  })
}
