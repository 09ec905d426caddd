import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { inlineScripts } from './scripts/inline-scripts.ts'

export default defineConfig({
  plugins: [inlineScripts()],
  resolve: { tsconfigPaths: true },
  test: {
    include: ['app/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'tests/integration/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['./tests/setup.ts'],
    globalSetup: ['./tests/global-setup.ts'],
    // Each database test file opens its own copy of the template PGlite or PostgreSQL database.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One file more than there are cores: database files spend part of their time waiting on
    // the database and on render processes (on 2 cores, 3 files at once took 240 s, 2 took 290).
    maxWorkers: availableParallelism() + 1,
  },
})
