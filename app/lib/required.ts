import { z } from './zod-mini.ts'

/**
 * The first check of a field that must be filled in. An empty field says only that it is
 * required: the check stops the field's other rules, so an empty password does not also list
 * its length, capital letter and digit. Put it after the trim, before every other rule.
 */
export const required = (message: string) => z.minLength(1, { error: message, abort: true })
