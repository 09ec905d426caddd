import { packageRefWire, wireDateTime, wireId, wireShape, type Wire } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { avatarUrl } from './user-json.ts'

/** The user in the API's answers; never the password hash. */
export const userWire = wireShape(
  'User',
  z.object({
    id: wireId,
    username: z.string().describe('For signing in'),
    full_name_ar: z.string().nullable().describe('The full name in Arabic, printed on documents and invoices; null until given'),
    full_name_en: z.string().nullable().describe('The full name in English, for the English side of documents; optional'),
    email: z.email(),
    phone: z.string().describe('+9665xxxxxxxx'),
    avatar_url: z.string().nullable(),
    email_verified_at: wireDateTime.nullable(),
    created_at: wireDateTime,
    subscription: z
      .object({ package: packageRefWire, starts_at: wireDateTime, ends_at: wireDateTime })
      .nullable()
      .describe('The subscription in force now'),
  }),
)

export type UserJson = Wire<typeof userWire>
export type UserSubscriptionJson = NonNullable<UserJson['subscription']>

type UserRow = {
  id: string
  username: string
  fullNameAr: string | null
  fullNameEn: string | null
  email: string
  phone: string
  avatarFile: string | null
  emailVerifiedAt: Date | null
  createdAt: Date
}

/** `subscription`: the one in force now (billing knows it; the caller asks), or null. */
export function userToJson(user: UserRow, subscription: UserSubscriptionJson | null): UserJson {
  return {
    id: user.id,
    username: user.username,
    full_name_ar: user.fullNameAr,
    full_name_en: user.fullNameEn,
    email: user.email,
    phone: user.phone,
    avatar_url: avatarUrl(user.avatarFile),
    email_verified_at: user.emailVerifiedAt?.toISOString() ?? null,
    created_at: user.createdAt.toISOString(),
    subscription,
  }
}
