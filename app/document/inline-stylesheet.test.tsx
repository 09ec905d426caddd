import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { builtStylesheetText } from '#app/document/stylesheet-text.server.ts'
import { InlineStylesheet, StylesheetTextProvider } from './inline-stylesheet.tsx'

function clientDir(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hallil-client-'))
  mkdirSync(path.join(dir, 'assets'))
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text)
  return dir
}

describe('the inlined stylesheet', () => {
  const css = ':root{--brand:#0f5d52}body{font-family:"IBM Plex Sans Arabic",sans-serif}'
  const dir = clientDir({ 'assets/app-Ab12.css': css, 'assets/evil-Cd34.css': 'a{}</style><script>alert(1)</script>', 'secret.css': 'x{}' })

  it('is written into the page, with the nonce, where the server has the built file', () => {
    const html = renderToString(
      <StylesheetTextProvider value={builtStylesheetText(dir)}>
        <InlineStylesheet href="/assets/app-Ab12.css" nonce="abc" />
      </StylesheetTextProvider>,
    )
    expect(html).toBe(`<style nonce="abc" data-href="/assets/app-Ab12.css">${css}</style>`)
  })

  it('stays a link in development and unit tests (no text given) and for anything but a built stylesheet', () => {
    expect(renderToString(<InlineStylesheet href="/app/styles/app.css" />)).toBe('<link rel="stylesheet" href="/app/styles/app.css"/>')
    const textOf = builtStylesheetText(dir)
    for (const href of ['/assets/missing-Zz99.css', '/secret.css', '/assets/../secret.css', '/assets/evil-Cd34.css']) {
      expect(textOf(href)).toBeUndefined()
      const html = renderToString(
        <StylesheetTextProvider value={textOf}>
          <InlineStylesheet href={href} nonce="abc" />
        </StylesheetTextProvider>,
      )
      expect(html).toBe(`<link rel="stylesheet" href="${href}"/>`)
    }
  })

  it('is read from disk once per file', () => {
    const own = clientDir({ 'assets/app-Ef56.css': 'p{color:red}' })
    const textOf = builtStylesheetText(own)
    expect(textOf('/assets/app-Ef56.css')).toBe('p{color:red}')
    writeFileSync(path.join(own, 'assets/app-Ef56.css'), 'p{color:blue}')
    expect(textOf('/assets/app-Ef56.css')).toBe('p{color:red}')
  })
})
