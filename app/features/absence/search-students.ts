import { DomainError } from '#app/lib/errors.ts'
import { normalizeName } from '#app/features/analyses/index.ts'

/** A search needs a full name: at least this many words. */
export const minimumSearchWords = 3

function wordsOf(text: string): string[] {
  const normalized = normalizeName(text).toLowerCase()
  return normalized === '' ? [] : normalized.split(' ')
}

/**
 * The students whose normalised name starts with the term's words, in order (absence.md,
 * "Student search"): `محمد احمد علي` finds `مُحمّد أحمد علي الغامدي`. Throws a DomainError
 * (`absence.search.tooShort`, 400) for fewer than three words and (`absence.search.notFound`,
 * 404) when nobody matches.
 */
export function searchStudents<S extends { readonly name: string }>(students: readonly S[], term: string): S[] {
  const wanted = wordsOf(term)
  if (wanted.length < minimumSearchWords) throw new DomainError(400, 'absence.search.tooShort')
  const found = students.filter((student) => {
    const words = wordsOf(student.name)
    return words.length >= wanted.length && wanted.every((word, i) => words[i] === word)
  })
  if (found.length === 0) throw new DomainError(404, 'absence.search.notFound')
  return found
}
