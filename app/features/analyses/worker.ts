// The analyses' worker thread: runs the tasks of worker-tasks.server.ts for the pool of
// worker-pool.server.ts. Built as build/server/analysis-worker.js (vite.config.ts); run from
// source through tsx in development, tests and CLIs.
import { serveWorkerTasks } from '#app/platform/xlsx/worker-pool.server.ts'
import { workerTasks } from './worker-tasks.server.ts'

serveWorkerTasks(workerTasks)
