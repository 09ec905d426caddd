import { asc, eq } from 'drizzle-orm'
import { DomainError } from '#app/lib/errors.ts'
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

// The operator area's side (pages and /api/v1/admin/packages), by id, from the shared form schema.
// Invoices and credit notes keep their own copy of a package's names and prices, so nothing
// done here changes one already issued (docs/billing.md, "Packages").

export type PackageForm = {
  slug: string
  name_ar: string
  name_en: string
  description_ar: string
  description_en: string
  price: number
  months: number
  sort_order: number
  is_best_seller: boolean
}

export type PackageRow = typeof packages.$inferSelect

const fieldsOf = (form: PackageForm): PackageFields => ({
  slug: form.slug,
  nameAr: form.name_ar,
  nameEn: form.name_en,
  descriptionAr: form.description_ar,
  descriptionEn: form.description_en,
  priceHalalas: form.price,
  months: form.months,
  sortOrder: form.sort_order,
  isBestSeller: form.is_best_seller,
})

/** A slug taken by another package is the form's error, not a 500. */
async function slugTaken(db: Db, slug: string, exceptId?: number) {
  const [row] = await db.select({ id: packages.id }).from(packages).where(eq(packages.slug, slug)).limit(1)
  return Boolean(row && row.id !== exceptId)
}

export type CreatePackageOptions = { db: Db; form: PackageForm }

export async function createPackage({ db, form }: CreatePackageOptions): Promise<PackageRow> {
  if (await slugTaken(db, form.slug))
    throw new DomainError(409, 'billing.admin.errors.slugTaken', { slug: ['billing.admin.errors.slugTaken'] })
  const row = await addPackage({ db, fields: fieldsOf(form) })
  if (!row) throw new Error('package insert returned no row')
  return row
}

export type FindPackageOptions = { db: Db; packageId: number }

export async function findPackage({ db, packageId }: FindPackageOptions): Promise<PackageRow | null> {
  if (!Number.isSafeInteger(packageId)) return null
  const [row] = await db.select().from(packages).where(eq(packages.id, packageId)).limit(1)
  return row ?? null
}

export type EditPackageOptions = { db: Db; packageId: number; form: PackageForm }

/** Changes a package for the payments to come; what was paid and invoiced keeps its own copy. */
export async function editPackage({ db, packageId, form }: EditPackageOptions): Promise<{ before: PackageRow; after: PackageRow }> {
  const before = await findPackage({ db, packageId })
  if (!before) throw new DomainError(404, 'billing.errors.packageNotFound')
  if (await slugTaken(db, form.slug, packageId))
    throw new DomainError(409, 'billing.admin.errors.slugTaken', { slug: ['billing.admin.errors.slugTaken'] })
  const after = await updatePackage({ db, slug: before.slug, fields: fieldsOf(form) })
  if (!after) throw new DomainError(404, 'billing.errors.packageNotFound')
  return { before, after }
}

export type SetPackageActiveOptions = { db: Db; packageId: number; isActive: boolean }

/** Deactivates (or brings back) a package: an inactive one is neither listed nor sold; nothing is deleted. */
export async function setPackageActive({ db, packageId, isActive }: SetPackageActiveOptions): Promise<PackageRow> {
  const [row] = await db.update(packages).set({ isActive, updatedAt: new Date() }).where(eq(packages.id, packageId)).returning()
  if (!row) throw new DomainError(404, 'billing.errors.packageNotFound')
  return row
}
