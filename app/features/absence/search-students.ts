import { DomainError } from '#app/lib/errors.ts'
import { normalizeName } from '#app/features/analyses/index.ts'

/** A search needs a full name: at least this many words. */
export const minimumSearchWords = 3

function wordsOf(text: string): string[] {
  const normalized = normalizeName(text).toLowerCase()
  return normalized === '' ? [] : normalized.split(' ')
}

/** A name as the search compares it: its normalised words, lower case, one space apart (the stored entries' `name_key`). */
export function nameKey(name: string): string {
  return wordsOf(name).join(' ')
}

/**
 * What a search looks for: the term's key, which a student's name key must equal or start with
 * followed by a space (whole words, in order). Throws a DomainError (`absence.search.tooShort`,
 * 400) for fewer than three words.
 */
export function searchKey(term: string): string {
  const wanted = wordsOf(term)
  if (wanted.length < minimumSearchWords) throw new DomainError(400, 'absence.search.tooShort')
  return wanted.join(' ')
}

/** Whether a name key is found by a search key: the same words, or those words then more. */
export function keyMatches(studentKey: string, key: string): boolean {
  return studentKey === key || studentKey.startsWith(`${key} `)
}

/**
 * The students whose normalised name starts with the term's words, in order (docs/absence.md,
 * "Student search"): `محمد احمد علي` finds `مُحمّد أحمد علي الغامدي`. Throws a DomainError
 * (`absence.search.tooShort`, 400) for fewer than three words and (`absence.search.notFound`,
 * 404) when nobody matches.
 */
export function searchStudents<S extends { readonly name: string }>(students: readonly S[], term: string): S[] {
  const key = searchKey(term)
  const found = students.filter((student) => keyMatches(nameKey(student.name), key))
  if (found.length === 0) throw new DomainError(404, 'absence.search.notFound')
  return found
}
