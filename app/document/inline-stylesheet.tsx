import { createContext, useContext } from 'react'

// The site's stylesheet is written into each document's <head> instead of being linked, so the
// first paint waits for nothing but the HTML (decision 013). The server reads the built file's
// text (`StylesheetTextProvider`, set up by entry.server from the built client folder). In the
// browser the element hydrates onto the server's <style> without touching its contents: React
// leaves a hydrated element's `dangerouslySetInnerHTML` alone, and the constant props below never
// change, so no later render rewrites it. Where the server has no text to give (development,
// where Vite serves the CSS with hot reload, and unit tests) both sides render a plain link.

/** The text of a built stylesheet by its public URL; undefined when it cannot be inlined. */
export type StylesheetText = (href: string) => string | undefined

const StylesheetTextContext = createContext<StylesheetText | undefined>(undefined)
export const StylesheetTextProvider = StylesheetTextContext.Provider

/** The same object on every render, so React never sees a changed `dangerouslySetInnerHTML`. */
const KEEP_SERVER_TEXT = { __html: '' }

/**
 * Whether the server wrote the stylesheet into this document. Read from the document once, when
 * hydration first renders it: the answer cannot change (the element stays), and the root layout
 * renders again on every navigation.
 */
const inlinedHrefs = new Map<string, boolean>()
function inlinedByServer(href: string) {
  let inlined = inlinedHrefs.get(href)
  if (inlined === undefined) {
    inlined = [...document.head.querySelectorAll('style[data-href]')].some((style) => style.getAttribute('data-href') === href)
    inlinedHrefs.set(href, inlined)
  }
  return inlined
}

export function InlineStylesheet({ href, nonce }: { href: string; nonce?: string }) {
  const textOf = useContext(StylesheetTextContext)
  if (typeof document === 'undefined') {
    const text = textOf?.(href)
    if (text === undefined) return <link rel="stylesheet" href={href} />
    return <style nonce={nonce} data-href={href} dangerouslySetInnerHTML={{ __html: text }} />
  }
  if (!inlinedByServer(href)) return <link rel="stylesheet" href={href} />
  return <style data-href={href} dangerouslySetInnerHTML={KEEP_SERVER_TEXT} suppressHydrationWarning />
}
