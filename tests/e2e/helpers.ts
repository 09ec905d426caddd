import { readFileSync } from 'node:fs'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import pg from 'pg'

export const publicPaths = ['', 'packages', 'about-us', 'common-questions', 'contact-us', 'privacy-policy', 'terms'] as const
export const langs = ['ar', 'en'] as const

export function pagePath(lang: string, page: string) {
  return `/${lang}${page ? `/${page}` : ''}`
}

/** The PostgreSQL database the e2e server runs on, or null on PGlite (which one process holds). */
export function e2eDatabaseUrl(): string | null {
  const info = JSON.parse(readFileSync(path.resolve('.tmp/e2e-data/e2e.json'), 'utf8')) as { databaseUrl: string | null }
  return info.databaseUrl
}

export async function queryE2eDatabase<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[] | null> {
  const url = e2eDatabaseUrl()
  if (!url) return null
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(sql, params)).rows
  } finally {
    await client.end()
  }
}

/** Clicks what starts a download, saves the file among the test's outputs and returns its path. */
export async function downloadFrom(
  page: import('@playwright/test').Page,
  testInfo: import('@playwright/test').TestInfo,
  action: () => Promise<void>,
  name: string,
): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), action()])
  const target = testInfo.outputPath(name)
  await file.saveAs(target)
  return target
}

/**
 * axe with the WCAG 2.x A/AA rules, its best practices and its experimental rules, which catch
 * what the stable set does not yet (an accessible name that leaves out the visible label).
 */
export function axe(page: import('@playwright/test').Page) {
  return new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental'])
}
