// Screenshots of the public pages in both languages and both colour modes, for looking at
// what a teacher sees: `node scripts/screenshots.js [baseUrl] [outDir] [path ...]`.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { chromium } from 'playwright-core'

const [baseUrl = 'http://localhost:3000', outDir = '.tmp/screenshots', ...only] = process.argv.slice(2)
const pages = only.length ? only : ['', 'packages', 'about-us', 'common-questions', 'contact-us', 'privacy-policy', 'terms', 'no-such-page']
mkdirSync(outDir, { recursive: true })

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
for (const scheme of ['light', 'dark']) {
  for (const width of [1280, 390]) {
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width, height: 900 }, deviceScaleFactor: 1 })
    const page = await context.newPage()
    for (const lang of ['ar', 'en']) {
      for (const p of pages) {
        await page.goto(`${baseUrl}/${lang}${p ? `/${p}` : ''}`, { waitUntil: 'networkidle' })
        await page.evaluate(() => document.querySelectorAll('[data-reveal]').forEach((el) => el.classList.add('is-revealed')))
        const file = path.join(outDir, `${lang}-${p || 'home'}-${scheme}-${width}.png`)
        await page.screenshot({ path: file, fullPage: true })
      }
    }
    await context.close()
  }
}
await browser.close()
console.log(`screenshots in ${outDir}`)
