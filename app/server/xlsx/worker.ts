// The worker thread's entry: runs the tasks of worker-tasks.server.ts for the pool in
// worker-pool.server.ts. Built as build/server/xlsx-worker.js (vite.config.ts); run from
// source through tsx in development, tests and CLIs.
import { serveWorkerTasks } from './worker-pool.server.ts'
import { workerTasks } from './worker-tasks.server.ts'

serveWorkerTasks(workerTasks)
