import { and, count, countDistinct, gt, gte, lte, sql, sum } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { analyses, creditNotes, exams, invoices, subscriptions, users } from '#app/platform/db/schema.ts'

// The operator dashboard's figures (docs/operators.md): days and months are Riyadh's (UTC+3 all
// year, no daylight saving), so a teacher who signs up at 01:00 in Riyadh counts on her own day.

const RIYADH_OFFSET_MS = 3 * 3600 * 1000
const DAY_MS = 24 * 3600 * 1000

export type DayCount = { day: string; count: number }
export type MonthRevenue = { month: string; excludingVat: number; includingVat: number }

export type OperatorDashboard = {
  teachers: number
  activeSubscriptions: number
  /** Each of the last 30 Riyadh days, oldest first, today last; days without any are 0. */
  signUps: DayCount[]
  analyses: DayCount[]
  tests: DayCount[]
  /**
   * Each of the last 12 Riyadh months, oldest first: invoices issued in the month less credit
   * notes issued in it (a refund counts in its own month), in halalas.
   */
  revenue: MonthRevenue[]
}

export type OperatorDashboardOptions = { db: Db; now?: Date; days?: number; months?: number }

/** `YYYY-MM-DD` of the Riyadh day an instant falls on. */
const riyadhDay = (instant: Date) => new Date(instant.getTime() + RIYADH_OFFSET_MS).toISOString().slice(0, 10)

export async function operatorDashboard({
  db,
  now = new Date(),
  days = 30,
  months = 12,
}: OperatorDashboardOptions): Promise<OperatorDashboard> {
  const today = riyadhDay(now)
  // Midnight in Riyadh, `days - 1` days before today: the first instant counted.
  const firstDayStart = new Date(Date.parse(`${today}T00:00:00Z`) - RIYADH_OFFSET_MS - (days - 1) * DAY_MS)
  const dayKeys = Array.from({ length: days }, (_, i) => riyadhDay(new Date(firstDayStart.getTime() + i * DAY_MS + RIYADH_OFFSET_MS)))
  const [year, month] = today.split('-').map(Number) as [number, number]
  const monthKeys = Array.from({ length: months }, (_, i) => {
    const d = new Date(Date.UTC(year, month - 1 - (months - 1 - i), 1))
    return d.toISOString().slice(0, 7)
  })
  const firstMonthStart = new Date(Date.parse(`${monthKeys[0]}-01T00:00:00Z`) - RIYADH_OFFSET_MS)

  const perDay = async (table: typeof users | typeof analyses | typeof exams) => {
    const day = sql<string>`to_char(${table.createdAt} + interval '3 hours', 'YYYY-MM-DD')`
    const rows = await db
      .select({ day, n: count() })
      .from(table)
      .where(and(gte(table.createdAt, firstDayStart), lte(table.createdAt, now)))
      .groupBy(day)
    const byDay = new Map(rows.map((r) => [r.day, Number(r.n)]))
    return dayKeys.map((key) => ({ day: key, count: byDay.get(key) ?? 0 }))
  }

  const perMonth = async (table: typeof invoices | typeof creditNotes) => {
    const monthOf = sql<string>`to_char(${table.issuedAt} + interval '3 hours', 'YYYY-MM')`
    return db
      .select({ month: monthOf, price: sum(table.price), total: sum(table.total) })
      .from(table)
      .where(and(gte(table.issuedAt, firstMonthStart), lte(table.issuedAt, now)))
      .groupBy(monthOf)
  }

  const [[teachers], [active], signUps, analysesPerDay, testsPerDay, invoiced, credited] = await Promise.all([
    db.select({ n: count() }).from(users),
    db
      .select({ n: countDistinct(subscriptions.userId) })
      .from(subscriptions)
      .where(and(lte(subscriptions.startsAt, now), gt(subscriptions.endsAt, now))),
    perDay(users),
    perDay(analyses),
    perDay(exams),
    perMonth(invoices),
    perMonth(creditNotes),
  ])
  const revenue = new Map(monthKeys.map((key) => [key, { month: key, excludingVat: 0, includingVat: 0 }]))
  for (const row of [...invoiced, ...credited]) {
    const entry = revenue.get(row.month)
    if (!entry) continue
    entry.excludingVat += Number(row.price ?? 0)
    entry.includingVat += Number(row.total ?? 0)
  }
  return {
    teachers: Number(teachers?.n ?? 0),
    activeSubscriptions: Number(active?.n ?? 0),
    signUps,
    analyses: analysesPerDay,
    tests: testsPerDay,
    revenue: [...revenue.values()],
  }
}
