import { defaultLadder, type LadderStep } from '#app/features/follow-up/index.ts'
import type { Lang } from '#app/i18n/config.ts'
import { catalogue } from '#app/i18n/messages.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { messageTemplatesOf } from './store.server.ts'
import { studentMessages, type MessageStudent, type ParentMessage } from './student-messages.ts'

/**
 * The escalation ladder a teacher's messages and comparisons use. The default ladder until the
 * teacher's own ladder settings land (issue 18's register): then this one function reads them.
 */
export async function teacherLadder(_options: { db: Db; userId: string }): Promise<readonly LadderStep[]> {
  return defaultLadder
}

export interface StudentsMessagesOptions {
  readonly db: Db
  readonly userId: string
  readonly lang: Lang
  /** The school named in the analysis, if any. */
  readonly school: string | null | undefined
  readonly students: readonly MessageStudent[]
}

/** Each student's parent messages, with the teacher's templates and ladder, in the page's language. */
export async function studentsMessages({ db, userId, lang, school, students }: StudentsMessagesOptions): Promise<ParentMessage[][]> {
  if (students.length === 0) return []
  const [templates, ladder] = await Promise.all([messageTemplatesOf({ db, userId }), teacherLadder({ db, userId })])
  const words = catalogue[lang]['parent-messages'] as { schoolFallback: string; noDates: string }
  const schoolName = school?.trim() || words.schoolFallback
  return students.map((student) => studentMessages({ student, ladder, templates, lang, school: schoolName, noDates: words.noDates }))
}
