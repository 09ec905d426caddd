import { count } from 'drizzle-orm'
import type { Db } from './client.server.ts'
import { packages } from './schema.ts'

type NewPackage = typeof packages.$inferInsert

/** The three packages an empty database starts with. Prices exclude VAT, in halalas. */
export const defaultPackages: NewPackage[] = [
  {
    slug: 'monthly',
    nameAr: 'الباقة الشهرية',
    nameEn: 'Monthly',
    descriptionAr: 'جميع أدوات حلّل لمدة شهر: تحليل الغياب والدرجات وبناء الاختبارات.',
    descriptionEn: 'Every Hallil tool for one month: absence and grades analysis and the tests builder.',
    priceHalalas: 2900,
    months: 1,
    isBestSeller: false,
    sortOrder: 1,
  },
  {
    slug: 'term',
    nameAr: 'باقة الفصل الدراسي',
    nameEn: 'Term',
    descriptionAr: 'أربعة أشهر تغطي فصلاً دراسياً كاملاً بكل الأدوات والتصدير بلا حدود.',
    descriptionEn: 'Four months covering a full school term, with every tool and unlimited exports.',
    priceHalalas: 9900,
    months: 4,
    isBestSeller: false,
    sortOrder: 2,
  },
  {
    slug: 'yearly',
    nameAr: 'الباقة السنوية',
    nameEn: 'Yearly',
    descriptionAr: 'عام دراسي كامل بكل الأدوات، وهي الأوفر لمن يتابع فصوله طوال السنة.',
    descriptionEn: 'A full school year with every tool: the best value for following your classes all year.',
    priceHalalas: 24900,
    months: 12,
    isBestSeller: true,
    sortOrder: 3,
  },
]

export type SeedPackagesOptions = { db: Db }

/** Installs the default packages when the table is empty; returns how many it inserted. */
export async function seedPackages({ db }: SeedPackagesOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ n: count() }).from(packages)
    if ((row?.n ?? 0) > 0) return 0
    const inserted = await tx
      .insert(packages)
      .values(defaultPackages)
      .onConflictDoNothing({ target: packages.slug })
      .returning({ id: packages.id })
    return inserted.length
  })
}
