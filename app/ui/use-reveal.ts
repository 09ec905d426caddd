import { useEffect } from 'react'
import { revealOnScroll } from './reveal.ts'

/** The page's `[data-reveal]` elements fade in as they scroll into view (app/ui/reveal.ts). */
export function useRevealOnScroll() {
  useEffect(() => revealOnScroll(), [])
}
