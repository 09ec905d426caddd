import { defineConfig } from '@playwright/test'

const port = Number(process.env.E2E_PORT ?? 3100)

// Debian's Chromium, never a downloaded browser; flags from the machine notes (closed network).
export default defineConfig({
  testDir: './tests/e2e',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // In CI a failed test runs once more with a trace to read; a test that then passes still fails
  // the run (failOnFlakyTests), so a retry never hides anything. Recording a trace of every
  // test cost a fifth of the suite's time.
  retries: process.env.CI ? 1 : 0,
  failOnFlakyTests: Boolean(process.env.CI),
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: '.tmp/test-results',
  use: {
    baseURL: `http://localhost:${port}`,
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node --import tsx tests/support/e2e-server.ts',
    url: `http://localhost:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { E2E_PORT: String(port) },
    stdout: 'pipe',
    stderr: 'pipe',
    // Ended with SIGTERM (not killed), so it stops the server and drops its PostgreSQL database.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
  },
})
