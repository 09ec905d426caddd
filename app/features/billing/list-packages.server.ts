import { wireHalalas, wireShape, type Wire } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { asc, eq } from 'drizzle-orm'
import type { Lang } from '#app/i18n/config.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { packages } from '#app/platform/db/schema.ts'
import { priceBreakdown } from './vat.ts'

/** A package as pages and the API show it (the API's `package` shape, in camelCase). */
export type PackageView = {
  id: number
  name: string
  description: string
  months: number
  price: number
  vatRate: number
  vat: number
  total: number
  isBestSeller: boolean
}

export type ListPackagesOptions = { db: Db; lang: Lang; vatRateBasisPoints: number }

/** Every active package, in display order, with its VAT and total. */
export async function listPackages({ db, lang, vatRateBasisPoints }: ListPackagesOptions): Promise<PackageView[]> {
  const rows = await db.select().from(packages).where(eq(packages.isActive, true)).orderBy(asc(packages.sortOrder), asc(packages.id))
  return rows.map((row) => ({
    id: row.id,
    name: lang === 'ar' ? row.nameAr : row.nameEn,
    description: lang === 'ar' ? row.descriptionAr : row.descriptionEn,
    months: row.months,
    ...priceBreakdown(row.priceHalalas, vatRateBasisPoints),
    isBestSeller: row.isBestSeller,
  }))
}

/** A package in the API's answers: prices before VAT, the VAT and the total, in halalas. */
export const packageWire = wireShape(
  'Package',
  z.object({
    id: z.int(),
    name: z.string(),
    description: z.string(),
    months: z.int().min(1),
    price: wireHalalas('Before VAT'),
    vat_rate: z.number().describe('A percentage (15)'),
    vat: wireHalalas('The VAT'),
    total: wireHalalas('With VAT'),
    is_best_seller: z.boolean(),
  }),
)

export function packageToJson(p: PackageView): Wire<typeof packageWire> {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    months: p.months,
    price: p.price,
    vat_rate: p.vatRate,
    vat: p.vat,
    total: p.total,
    is_best_seller: p.isBestSeller,
  }
}
