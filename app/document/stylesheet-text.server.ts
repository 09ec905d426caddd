// The text of the built client's stylesheets, for writing them into each page's <head> (decision
// 013, app/document/inline-stylesheet.tsx). Each file is read once and kept: hashed build files never
// change while the process runs.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { StylesheetText } from '#app/document/inline-stylesheet.tsx'

/** Only the build's own hashed stylesheets are inlined; anything else stays a link. */
const BUILT_STYLESHEET = /^\/assets\/[\w-]+\.css$/

export function builtStylesheetText(clientDir: string): StylesheetText {
  const texts = new Map<string, string | undefined>()
  return (href) => {
    if (texts.has(href)) return texts.get(href)
    let text: string | undefined
    if (BUILT_STYLESHEET.test(href)) {
      try {
        text = readFileSync(path.join(clientDir, href), 'utf8')
      } catch {
        text = undefined
      }
      // Written raw into a <style> element: text that could close it is never inlined.
      if (text !== undefined && /<\/style/i.test(text)) text = undefined
    }
    texts.set(href, text)
    return text
  }
}
