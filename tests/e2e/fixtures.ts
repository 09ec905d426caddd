import { test as base } from '@playwright/test'

/**
 * Each test is a different teacher on a different connection: the e2e server trusts
 * X-Forwarded-For (TRUST_PROXY=true), so the per-address limits (registrations, logins, the
 * contact form) apply per test as they would per school, instead of to the whole run.
 */
export const test = base.extend({
  // Playwright reads the fixtures a function needs from its first parameter: none here.
  // oxlint-disable-next-line no-empty-pattern
  extraHTTPHeaders: async ({}, provide, testInfo) => {
    const n = (testInfo.workerIndex * 1000 + testInfo.testId.split('').reduce((a, c) => (a * 31 + c.charCodeAt(0)) >>> 0, 7)) >>> 0
    await provide({ 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` })
  },
})

export { expect } from '@playwright/test'
export type { Page } from '@playwright/test'
