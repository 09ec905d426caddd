import { listAnalyses } from '#app/features/analyses/index.server.ts'
import { listSubscriptions } from '#app/features/billing/index.server.ts'
import { listExams } from '#app/features/exams/index.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import type { HomeSubscription, TeacherHome } from './home-data.ts'

/** How many of her latest analyses and tests the home shows; the lists are one link away. */
export const RECENT_ON_HOME = 3

const DAY_MS = 24 * 60 * 60 * 1000

export type LoadTeacherHomeOptions = { db: Db; userId: string; lang: Lang; now?: Date }

/**
 * The teacher's home in one read: the subscription in force (else the next one bought, else the
 * last one ended, else none) and her latest analyses and tests.
 */
export async function loadTeacherHome({ db, userId, lang, now = new Date() }: LoadTeacherHomeOptions): Promise<TeacherHome> {
  const [subscriptions, analyses, exams] = await Promise.all([
    listSubscriptions({ db, userId, lang, now }),
    listAnalyses({ db, userId, limit: RECENT_ON_HOME }),
    listExams({ db, userId, limit: RECENT_ON_HOME }),
  ])
  return {
    subscription: homeSubscription(subscriptions, now),
    analyses: analyses.map((a) => ({ id: a.id, kind: a.kind, title: a.title, createdAt: a.createdAt.toISOString() })),
    exams: exams.map((e) => ({ id: e.id, title: e.title, questionCount: e.questionCount, createdAt: e.createdAt.toISOString() })),
  }
}

type Listed = Awaited<ReturnType<typeof listSubscriptions>>[number]

function homeSubscription(list: Listed[], now: Date): HomeSubscription {
  // The list is ordered by end date, latest first: the first current one lasts longest.
  const current = list.find((s) => s.status === 'current')
  if (current) {
    // Whole days, counted up: a subscription ending tonight still has today.
    const daysLeft = Math.max(1, Math.ceil((Date.parse(current.endsAt) - now.getTime()) / DAY_MS))
    return { state: 'current', packageName: current.packageName, endsAt: current.endsAt, daysLeft }
  }
  const upcoming = list.filter((s) => s.status === 'upcoming').at(-1)
  if (upcoming) return { state: 'upcoming', packageName: upcoming.packageName, startsAt: upcoming.startsAt }
  const ended = list.find((s) => s.status === 'expired')
  if (ended) return { state: 'expired', packageName: ended.packageName, endsAt: ended.endsAt }
  return { state: 'none' }
}
