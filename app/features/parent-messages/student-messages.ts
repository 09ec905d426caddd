import { stepOf, type LadderStep } from '#app/features/follow-up/index.ts'
import type { Lang } from '#app/i18n/config.ts'
import { formatDay } from '#app/i18n/format.ts'
import { fillTemplate, whatsAppUrl, type MessageKind, type MessageTemplates } from './templates.ts'

/** What a student's messages are filled from: a found student of an absence analysis. */
export interface MessageStudent {
  readonly name: string
  readonly grade: string
  readonly classroom: string
  readonly unexcused: number
  /** Daily records: the days missed, oldest first; absent for a totals file (no dates). */
  readonly absences?: ReadonlyArray<{ readonly date: string; readonly type: 'excused' | 'unexcused' }>
  readonly guardianMobile?: string
}

export interface ParentMessage {
  readonly kind: MessageKind
  readonly text: string
  /** `https://wa.me/…?text=…`, to the guardian's number when the file gave one. */
  readonly whatsApp: string
  readonly hasNumber: boolean
}

export interface StudentMessagesInput {
  readonly student: MessageStudent
  readonly ladder: readonly LadderStep[]
  readonly templates: MessageTemplates
  /** The message's language (the page's). */
  readonly lang: Lang
  /** The school's name from the analysis, else the locale's "the school administration". */
  readonly school: string
  /** The locale's words for a totals file, which has no dates. */
  readonly noDates: string
}

/** The most dates a message lists: the latest ones (a message stays short). */
export const datesInMessage = 10

/**
 * A student's messages: the one of the step the unexcused days reached (with those days' dates),
 * and, for a daily file, the same-day message for the latest day missed. None without an absence.
 * Arabic messages give Umm al-Qura dates, English ones Gregorian.
 */
export function studentMessages({ student, ladder, templates, lang, school, noDates }: StudentMessagesInput): ParentMessage[] {
  const day = (iso: string) => (lang === 'ar' ? formatDay(lang, iso).hijri : formatDay(lang, iso).gregorian)
  const list = (dates: readonly string[]) =>
    dates.length === 0 ? noDates : new Intl.ListFormat(lang, { type: 'unit', style: 'short' }).format(dates.slice(-datesInMessage).map(day))
  const base = { student: student.name, classroom: `${student.grade} / ${student.classroom}`, count: String(student.unexcused), school }
  const message = (kind: MessageKind, dates: string): ParentMessage => {
    const text = fillTemplate(templates[lang][kind], { ...base, dates })
    return { kind, text, whatsApp: whatsAppUrl(text, student.guardianMobile), hasNumber: Boolean(student.guardianMobile) }
  }
  const out: ParentMessage[] = []
  const step = stepOf(student.unexcused, ladder)
  const unexcusedDates = student.absences?.filter((a) => a.type === 'unexcused').map((a) => a.date)
  if (step !== null) {
    const document = ladder[step]?.document
    if (document) out.push(message(document, unexcusedDates ? list(unexcusedDates) : noDates))
  }
  const latest = student.absences?.at(-1)
  if (latest) out.push(message('sameDay', day(latest.date)))
  return out
}
