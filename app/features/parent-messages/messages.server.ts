import { studentsByUnexcused, type StoredAbsence } from '#app/features/absence/index.server.ts'
import { findAnalysis } from '#app/features/analyses/index.server.ts'
import { ladderOf } from '#app/features/follow-up/index.server.ts'
import type { LadderStep } from '#app/features/follow-up/index.ts'
import type { Lang } from '#app/i18n/config.ts'
import { catalogue } from '#app/i18n/messages.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { messageTemplatesOf } from './store.server.ts'
import { studentMessages, type MessageStudent, type ParentMessage } from './student-messages.ts'

export interface StudentsMessagesOptions {
  readonly db: Db
  readonly userId: string
  readonly lang: Lang
  /** The school named in the analysis, if any. */
  readonly school: string | null | undefined
  readonly students: readonly MessageStudent[]
  /** The teacher's ladder when the caller has read it already. */
  readonly ladder?: readonly LadderStep[]
}

/** Each student's parent messages, with the teacher's templates and ladder, in the page's language. */
export async function studentsMessages({
  db,
  userId,
  lang,
  school,
  students,
  ladder: given,
}: StudentsMessagesOptions): Promise<ParentMessage[][]> {
  if (students.length === 0) return []
  const [templates, ladder] = await Promise.all([messageTemplatesOf({ db, userId }), given ?? ladderOf({ db, userId })])
  const words = catalogue[lang]['parent-messages'] as { schoolFallback: string; noDates: string }
  const schoolName = school?.trim() || words.schoolFallback
  return students.map((student) => studentMessages({ student, ladder, templates, lang, school: schoolName, noDates: words.noDates }))
}

export interface StepMessagesOptions {
  readonly db: Db
  readonly userId: string
  readonly analysisId: string
  /** The ladder step's index (0 = the first); out of range: the first. */
  readonly step: number
  readonly lang: Lang
}

/** The most messages a step's list shows at once. */
export const stepMessagesLimit = 100

/**
 * The students of one of the teacher's absence analyses at a step of her ladder (unexcused days
 * from the step's days to the next step's), each with the step's message; null when the analysis
 * is not hers (or not an absence analysis).
 */
export async function stepMessages({ db, userId, analysisId, step, lang }: StepMessagesOptions) {
  const found = await findAnalysis({ db, userId, id: analysisId })
  if (found?.kind !== 'absence') return null
  const stored = found as StoredAbsence
  const ladder = await ladderOf({ db, userId })
  const index = Number.isInteger(step) && step >= 0 && step < ladder.length ? step : 0
  const current = ladder[index] as LadderStep
  const { students, total } = await studentsByUnexcused({
    db,
    stored,
    min: current.days,
    max: ladder[index + 1]?.days ?? null,
    limit: stepMessagesLimit,
  })
  const messages = await studentsMessages({ db, userId, lang, school: stored.meta.school, students })
  return {
    analysis: { id: stored.id, title: stored.title },
    ladder,
    step: index,
    total,
    students: students.map((s, i) => ({
      name: s.name,
      grade: s.grade,
      classroom: s.classroom,
      unexcused: s.unexcused,
      message: (messages[i] ?? []).find((m) => m.kind === current.document) ?? null,
    })),
  }
}
