import type { ReactNode } from 'react'

/** Stands for a value in a translated sentence, to be replaced by an element. */
export const SLOT = '\u0000'

/**
 * A translated sentence with one value set apart, e.g. an email or a path kept left to right
 * inside Arabic text: `<WithSlot text={t('k', { email: SLOT })}><bdi dir="ltr">{email}</bdi></WithSlot>`.
 */
export function WithSlot({ text, children }: { text: string; children: ReactNode }) {
  const [before = '', after = ''] = text.split(SLOT)
  return (
    <>
      {before}
      {children}
      {after}
    </>
  )
}
