/** The subscription in force now, as the user object of api.md shows it. */
export type UserSubscriptionJson = { package: { id: number; name: string }; starts_at: string; ends_at: string }

/** The user object of api.md; never the password hash. */
export type UserJson = {
  id: string
  username: string
  email: string
  phone: string
  avatar_url: string | null
  email_verified_at: string | null
  created_at: string
  subscription: UserSubscriptionJson | null
}

type UserRow = {
  id: string
  username: string
  email: string
  phone: string
  avatarFile: string | null
  emailVerifiedAt: Date | null
  createdAt: Date
}

export function avatarUrl(avatarFile: string | null): string | null {
  return avatarFile ? `/files/${avatarFile}` : null
}

/** `subscription`: the one in force now (billing knows it; the caller asks), or null. */
export function userToJson(user: UserRow, subscription: UserSubscriptionJson | null): UserJson {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    phone: user.phone,
    avatar_url: avatarUrl(user.avatarFile),
    email_verified_at: user.emailVerifiedAt?.toISOString() ?? null,
    created_at: user.createdAt.toISOString(),
    subscription,
  }
}
