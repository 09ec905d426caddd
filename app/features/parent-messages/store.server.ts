import { eq } from 'drizzle-orm'
import { schoolDetailsOf } from '#app/features/accounts/index.server.ts'
import { catalogue } from '#app/i18n/messages.server.ts'
import type { SchoolStudents } from '#app/lib/constants.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { parentMessageTemplates } from '#app/platform/db/schema.ts'
import { messageKinds, messageLangs, type MessageKind, type MessageLang, type MessageTemplates } from './templates.ts'

type DefaultWords = { defaults: Record<MessageKind, string>; defaultsGirls: Record<MessageKind, string> }

/**
 * The default templates: each language's from its own locale file, for a boys' school
 * (`parent-messages.defaults`) or a girls' school (`defaultsGirls`: the Arabic speaks of a
 * daughter and of the counsellor as a woman, as the school's letters do).
 */
export function defaultTemplates(students: SchoolStudents = 'boys'): MessageTemplates {
  const side = (lang: MessageLang) => {
    const words = catalogue[lang]['parent-messages'] as DefaultWords
    const defaults = students === 'girls' ? words.defaultsGirls : words.defaults
    return Object.fromEntries(messageKinds.map((kind) => [kind, defaults[kind]])) as Record<MessageKind, string>
  }
  return { ar: side('ar'), en: side('en') }
}

export type TeacherOptions = { db: Db; userId: string }

/** The defaults for the teacher's school (boys' until her school details say otherwise). */
async function teacherDefaults({ db, userId }: TeacherOptions): Promise<MessageTemplates> {
  return defaultTemplates((await schoolDetailsOf({ db, userId }))?.students)
}

/**
 * The teacher's templates; the defaults where she has none (never saved, or a kind added since).
 * Her school details are read only then: saved templates need no defaults.
 */
export async function messageTemplatesOf({ db, userId }: TeacherOptions): Promise<MessageTemplates> {
  const [row] = await db
    .select({ templates: parentMessageTemplates.templates })
    .from(parentMessageTemplates)
    .where(eq(parentMessageTemplates.userId, userId))
    .limit(1)
  const savedText = (lang: MessageLang, kind: MessageKind) => {
    const saved = row?.templates[lang]?.[kind]
    return typeof saved === 'string' && saved.trim() ? saved : null
  }
  const complete = messageLangs.every((lang) => messageKinds.every((kind) => savedText(lang, kind) !== null))
  const defaults = complete ? null : await teacherDefaults({ db, userId })
  const side = (lang: MessageLang) =>
    Object.fromEntries(messageKinds.map((kind) => [kind, savedText(lang, kind) ?? defaults?.[lang][kind] ?? ''])) as Record<
      MessageKind,
      string
    >
  return { ar: side('ar'), en: side('en') }
}

export type SaveMessageTemplatesOptions = TeacherOptions & { templates: MessageTemplates }

/** Saves the teacher's templates (already checked by messageTemplatesSchema); every message uses them from now on. */
export async function saveMessageTemplates({ db, userId, templates }: SaveMessageTemplatesOptions): Promise<MessageTemplates> {
  const value = Object.fromEntries(messageLangs.map((lang) => [lang, { ...templates[lang] }]))
  await db
    .insert(parentMessageTemplates)
    .values({ userId, templates: value })
    .onConflictDoUpdate({ target: parentMessageTemplates.userId, set: { templates: value, updatedAt: new Date() } })
  return messageTemplatesOf({ db, userId })
}

/** Back to the default templates: the teacher's row goes, so later changes to the defaults reach her. */
export async function restoreMessageTemplates({ db, userId }: TeacherOptions): Promise<MessageTemplates> {
  await db.delete(parentMessageTemplates).where(eq(parentMessageTemplates.userId, userId))
  return teacherDefaults({ db, userId })
}
