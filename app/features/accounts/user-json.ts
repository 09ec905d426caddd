/** Where a profile picture is read from, by its stored file's name. */
export function avatarUrl(avatarFile: string | null): string | null {
  return avatarFile ? `/files/${avatarFile}` : null
}
