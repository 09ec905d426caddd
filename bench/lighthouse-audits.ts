// Why a Lighthouse score is not 100: runs Lighthouse (mobile) on the built server, like the bench
// does, and prints every accessibility, best-practices and SEO audit that did not pass, with its
// items, and the DevTools issues in full (the report's `inspector-issues` items leave out where a
// Content-Security-Policy issue came from; the gathered artifact has it).
//
//   npx tsx bench/lighthouse-audits.ts                 all the bench's pages, both languages
//   npx tsx bench/lighthouse-audits.ts ar/packages en/exams
//
// Each report is also written to .tmp/lighthouse/<lang>-<page>.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { root, startServer } from '#tests/support/server-process.ts'
import { LIGHTHOUSE_PAGES, subscribedTeacherCookie } from './lighthouse.ts'

const lighthouse = (await import('lighthouse')).default
const { launch } = await import('chrome-launcher')
const wanted = process.argv.slice(2)
const outDir = path.join(root, '.tmp/lighthouse')
mkdirSync(outDir, { recursive: true })

const server = await startServer({ name: 'lighthouse', database: 'pglite', hostname: '127.0.0.1', snapshot: true })
try {
  const cookie = await subscribedTeacherCookie(server)
  const chrome = await launch({
    chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    logLevel: 'silent',
  })
  try {
    for (const lang of ['ar', 'en'] as const) {
      for (const page of LIGHTHOUSE_PAGES) {
        const name = `${lang}/${page.name}`
        if (wanted.length && !wanted.includes(name)) continue
        const run = await lighthouse(`${server.url}/${lang}${page.path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
          ...(page.signedIn && { extraHeaders: { Cookie: cookie } }),
        })
        if (!run) throw new Error(`${name}: no result`)
        const { lhr, artifacts } = run
        writeFileSync(path.join(outDir, `${lang}-${page.name}.json`), JSON.stringify(lhr))
        const scores = Object.values(lhr.categories)
          .map((c) => `${c.id} ${c.score}`)
          .join(', ')
        console.log(
          `\n${name} (${new URL(lhr.finalDisplayedUrl).pathname}): ${scores}${lhr.runtimeError ? `; ${lhr.runtimeError.code}` : ''}`,
        )
        for (const category of ['accessibility', 'best-practices', 'seo']) {
          for (const ref of lhr.categories[category]?.auditRefs ?? []) {
            const audit = lhr.audits[ref.id]
            if (!audit || audit.score === null || audit.score >= 1) continue
            console.log(`  ${category} · ${ref.id} (score ${audit.score}, weight ${ref.weight}): ${audit.title}`)
            const items = (audit.details as { items?: unknown[] } | undefined)?.items ?? []
            for (const item of items.slice(0, 8)) console.log(`    ${JSON.stringify(item).slice(0, 600)}`)
          }
        }
        for (const [kind, issues] of Object.entries(artifacts.InspectorIssues ?? {})) {
          for (const issue of issues as unknown[]) console.log(`  DevTools issue · ${kind}: ${JSON.stringify(issue)}`)
        }
      }
    }
  } finally {
    chrome.kill()
  }
} finally {
  await server.stop()
}
