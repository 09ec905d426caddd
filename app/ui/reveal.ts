/**
 * Fades `[data-reveal]` elements in as they enter the viewport (offset 120 px, 400 ms, ease).
 * Plain DOM, so pages served without React in the browser (app/document/enhance.client.ts) use it too.
 * Returns the clean-up.
 */
export function revealOnScroll(): () => void {
  const elements = Array.from(document.querySelectorAll<HTMLElement>('[data-reveal]'))
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches
  if (reduced || !('IntersectionObserver' in window)) {
    for (const el of elements) el.classList.add('is-revealed')
    return () => {}
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue
        entry.target.classList.add('is-revealed')
        observer.unobserve(entry.target)
      }
    },
    { rootMargin: '0px 0px -120px 0px' },
  )
  for (const el of elements) {
    // Already on screen at load: show at once.
    if (el.getBoundingClientRect().top < window.innerHeight - 120) el.classList.add('is-revealed')
    else observer.observe(el)
  }
  document.documentElement.classList.add('reveal-ready')
  return () => observer.disconnect()
}
