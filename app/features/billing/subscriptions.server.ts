import { packageRefWire, wireDateTime, wireHalalas, wireId, wireShape, type Wire } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { and, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm'
import type { Lang } from '#app/i18n/config.ts'
import { DomainError } from '#app/lib/errors.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { creditNotes, invoices, notifications, packages, payments, subscriptions } from '#app/platform/db/schema.ts'

export type CurrentSubscriptionOptions = { db: Db; userId: string; now?: Date }

/** The subscription in force now, if any (the latest-ending one). */
export async function currentSubscription({ db, userId, now = new Date() }: CurrentSubscriptionOptions) {
  const [row] = await db
    .select({ id: subscriptions.id, startsAt: subscriptions.startsAt, endsAt: subscriptions.endsAt, packageId: subscriptions.packageId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), lte(subscriptions.startsAt, now), gt(subscriptions.endsAt, now)))
    .orderBy(desc(subscriptions.endsAt))
    .limit(1)
  return row ?? null
}

export type RequireSubscriptionOptions = CurrentSubscriptionOptions

/**
 * The one guard of the tools (absence, grades, tests), for pages and the API alike: a current
 * subscription, or 403 with the product's message.
 */
export async function requireSubscription({ db, userId, now = new Date() }: RequireSubscriptionOptions) {
  const current = await currentSubscription({ db, userId, now })
  if (!current) throw new DomainError(403, 'billing.errors.notSubscribed')
  return current
}

export type SubscriptionView = {
  id: string
  packageId: number
  packageName: string
  status: 'current' | 'expired' | 'upcoming'
  startsAt: string
  endsAt: string
  payment: { id: string; method: string; amount: number; status: string }
  invoiceId: string | null
  /** The credit note of a refunded payment: the teacher downloads it beside the invoice. */
  creditNote: { id: string; serial: string } | null
}

export type ListSubscriptionsOptions = { db: Db; userId: string; lang: Lang; now?: Date }

export async function listSubscriptions({ db, userId, lang, now = new Date() }: ListSubscriptionsOptions): Promise<SubscriptionView[]> {
  const rows = await db
    .select({
      id: subscriptions.id,
      packageId: packages.id,
      nameAr: packages.nameAr,
      nameEn: packages.nameEn,
      startsAt: subscriptions.startsAt,
      endsAt: subscriptions.endsAt,
      paymentId: payments.id,
      method: payments.method,
      total: payments.total,
      paymentStatus: payments.status,
      invoiceId: invoices.id,
      creditNoteId: creditNotes.id,
      creditNoteSerial: creditNotes.serial,
    })
    .from(subscriptions)
    .innerJoin(packages, eq(packages.id, subscriptions.packageId))
    .innerJoin(payments, eq(payments.id, subscriptions.paymentId))
    .leftJoin(invoices, eq(invoices.paymentId, payments.id))
    .leftJoin(creditNotes, eq(creditNotes.paymentId, payments.id))
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.endsAt))
  return rows.map((r) => ({
    id: r.id,
    packageId: r.packageId,
    packageName: lang === 'ar' ? r.nameAr : r.nameEn,
    status: r.endsAt <= now ? 'expired' : r.startsAt > now ? 'upcoming' : 'current',
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt.toISOString(),
    payment: { id: r.paymentId, method: r.method, amount: r.total, status: r.paymentStatus },
    invoiceId: r.invoiceId,
    creditNote: r.creditNoteId && r.creditNoteSerial ? { id: r.creditNoteId, serial: r.creditNoteSerial } : null,
  }))
}

/** A subscription in the API's answers, with the payment that bought it. */
export const subscriptionWire = wireShape(
  'Subscription',
  z.object({
    id: wireId,
    package: packageRefWire,
    status: z.enum(['current', 'expired']),
    starts_at: wireDateTime,
    ends_at: wireDateTime,
    payment: z.object({ id: wireId, method: z.string(), amount: wireHalalas('Paid'), status: z.string() }),
  }),
)

export function subscriptionToJson(s: SubscriptionView): Wire<typeof subscriptionWire> {
  return {
    id: s.id,
    package: { id: s.packageId, name: s.packageName },
    status: s.status === 'expired' ? 'expired' : 'current',
    starts_at: s.startsAt,
    ends_at: s.endsAt,
    payment: s.payment,
  }
}

export type NotifySubscriptionEndingsOptions = { db: Db; now?: Date }

/**
 * Sends "ends in 7 days" and "has ended" notifications, each once per subscription (the
 * timestamps are set in the same statement that selects, so two processes never both send).
 */
export async function notifySubscriptionEndings({
  db,
  now = new Date(),
}: NotifySubscriptionEndingsOptions): Promise<{ ending: number; ended: number }> {
  const inSevenDays = new Date(now.getTime() + 7 * 24 * 3600 * 1000)
  const ending = await db
    .update(subscriptions)
    .set({ endingNotifiedAt: now })
    .where(
      and(
        isNull(subscriptions.endingNotifiedAt),
        gt(subscriptions.endsAt, now),
        lte(subscriptions.endsAt, inSevenDays),
        lte(subscriptions.startsAt, now),
      ),
    )
    .returning({ userId: subscriptions.userId, packageId: subscriptions.packageId, endsAt: subscriptions.endsAt })
  const ended = await db
    .update(subscriptions)
    .set({ endedNotifiedAt: now })
    .where(
      and(
        isNull(subscriptions.endedNotifiedAt),
        lte(subscriptions.endsAt, now),
        sql`${subscriptions.endsAt} > ${now.toISOString()}::timestamptz - interval '30 days'`,
      ),
    )
    .returning({ userId: subscriptions.userId, packageId: subscriptions.packageId, endsAt: subscriptions.endsAt })
  const names = new Map(
    (await db.select({ id: packages.id, nameAr: packages.nameAr, nameEn: packages.nameEn }).from(packages)).map((p) => [p.id, p]),
  )
  const rows = [...ending.map((s) => ({ ...s, kind: 'subscription_ending' })), ...ended.map((s) => ({ ...s, kind: 'subscription_ended' }))]
  if (rows.length > 0)
    await db.insert(notifications).values(
      rows.map((s) => ({
        userId: s.userId,
        kind: s.kind,
        params: {
          package: names.get(s.packageId)?.nameEn ?? '',
          packageAr: names.get(s.packageId)?.nameAr ?? '',
          date: s.endsAt.toISOString(),
        },
      })),
    )
  return { ending: ending.length, ended: ended.length }
}
