/** Where a profile picture is read from, by its stored file's name. */
export function avatarUrl(avatarFile: string | null): string | null {
  return avatarFile ? `/files/${avatarFile}` : null
}

/** Where a school's logo is read from (the same store and route as the profile pictures). */
export function schoolLogoUrl(logoFile: string | null): string | null {
  return logoFile ? `/files/${logoFile}` : null
}

type Named = { username: string; fullNameAr: string | null; fullNameEn: string | null }

/**
 * The name to greet a teacher by: her full name in the page's language, else her full name in
 * the other, else her username (she may not have given one).
 */
export function displayName(user: Named, lang: 'ar' | 'en'): string {
  const [first, second] = lang === 'ar' ? [user.fullNameAr, user.fullNameEn] : [user.fullNameEn, user.fullNameAr]
  return first || second || user.username
}

/** The name a document prints for its author in one language: that language's full name, else the username. */
export function documentName(user: Named, lang: 'ar' | 'en'): string {
  return (lang === 'ar' ? user.fullNameAr : user.fullNameEn) || user.username
}
