import { execFileSync } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { ServerBuild } from 'react-router'
import { EXAM_LIMITS } from '#app/features/exams/schemas.ts'
import { pdfPoolStats } from '#app/platform/pdf-pool.server.ts'
import type { AppServices } from '#app/platform/context.server.ts'
import { createHttpApp } from '#server/http/http.ts'
import { largestExamBody, subscribedTeacher, teacher } from './exams.ts'

// Issue #15's done-means, shared by the test (server/http/api/exams-print.under-load.test.ts) and
// `npm run bench`: the largest test the limits accept, printed as four versions with their keys
// through the real HTTP server, while /healthz and another teacher's profile are asked for
// every 100 ms. Over real sockets, so a blocked event loop shows as latency.

const noPages = { assets: { version: 'test', url: '', entry: { module: '', imports: [] }, routes: {} } } as unknown as ServerBuild

export type PrintUnderLoad = {
  status: number
  renderMs: number
  pages: number
  bytes: number
  healthzMs: number[]
  profileMs: number[]
  /** The render processes' peak resident memory. */
  renderPeakRssMb: number
  /** CPU time the render processes spent on this print (its page counts and the PDF). */
  renderCpuMs: number
}

export async function measurePrintUnderLoad(services: AppServices): Promise<PrintUnderLoad> {
  const ctx = {
    env: services.env,
    db: services.database.db,
    logger: services.logger,
    mailer: services.mailer,
    files: services.files,
    requestId: 'load',
    cspNonce: 'n',
    clientIp: '203.0.113.9',
    buildVersion: 'test',
  }
  const printer = await subscribedTeacher(ctx)
  const other = await teacher(ctx)
  const app = createHttpApp({ services, getBuild: () => noPages, mode: 'production' })
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' })
    const saved = await fetch(`${base}/api/v1/exams`, {
      method: 'POST',
      headers: { ...auth(printer.token), 'content-type': 'application/json' },
      body: JSON.stringify(largestExamBody(EXAM_LIMITS, 30)),
    })
    if (saved.status !== 201) throw new Error(`the largest test was refused: ${saved.status} ${await saved.text()}`)
    const { data } = (await saved.json()) as { data: { id: string } }
    // A running server has its render process started: a small print first, as a teacher's would be.
    const warm = await fetch(`${base}/api/v1/exams`, {
      method: 'POST',
      headers: { ...auth(printer.token), 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Warm-up', questions: [] }),
    })
    const warmId = ((await warm.json()) as { data: { id: string } }).data.id
    await (await fetch(`${base}/api/v1/exams/${warmId}/pdf`, { headers: auth(printer.token) })).arrayBuffer()

    const healthzMs: number[] = []
    const profileMs: number[] = []
    const timed = async (list: number[], url: string, headers?: Record<string, string>) => {
      const t0 = performance.now()
      const res = await fetch(url, { headers })
      await res.arrayBuffer()
      list.push(performance.now() - t0)
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`)
    }
    const printing = { isDone: false }
    const probes = (async () => {
      while (!printing.isDone) {
        await Promise.all([timed(healthzMs, `${base}/healthz`), timed(profileMs, `${base}/api/v1/auth/profile`, auth(other.token))])
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })()
    const cpuBefore = pdfPoolStats()?.cpuMs ?? 0
    const t0 = performance.now()
    const res = await fetch(`${base}/api/v1/exams/${data.id}/pdf?versions=4`, { headers: auth(printer.token) })
    const pdf = new Uint8Array(await res.arrayBuffer())
    const renderMs = performance.now() - t0
    printing.isDone = true
    await probes
    const pages =
      res.status === 200
        ? Number(
            /Pages:\s+(\d+)/.exec(
              execFileSync('/usr/bin/pdfinfo', ['-'], { input: pdf, stdio: ['pipe', 'pipe', 'ignore'] }).toString('utf8'),
            )?.[1],
          )
        : 0
    return {
      status: res.status,
      renderMs,
      pages,
      bytes: pdf.byteLength,
      healthzMs,
      profileMs,
      renderPeakRssMb: pdfPoolStats()?.peakRssMb ?? 0,
      renderCpuMs: (pdfPoolStats()?.cpuMs ?? 0) - cpuBefore,
    }
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}
