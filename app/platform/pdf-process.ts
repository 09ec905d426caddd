// A render process of pdf-pool.server.ts: answers one render at a time with its own typst
// compiler. Built as build/server/pdf-process.js (vite.config.ts); run from source through tsx.
import { createPdfRenderer, PdfRenderError } from './pdf.server.ts'
import type { PdfRenderReply, PdfRenderRequest } from './pdf-pool.server.ts'

const renderer = createPdfRenderer()

process.on('message', (request: PdfRenderRequest) => {
  let reply: PdfRenderReply
  const cpuAtStart = process.cpuUsage()
  try {
    const result = renderer.renderDocument(request.source, { inputs: request.inputs, images: request.images }, request.outputs)
    reply = {
      id: request.id,
      ok: true,
      result,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      cpuMs: cpuMsSince(cpuAtStart),
    }
  } catch (error) {
    reply = {
      id: request.id,
      ok: false,
      error: {
        name: error instanceof Error ? error.name : 'Error',
        message: error instanceof Error ? error.message : String(error),
        diagnostics: error instanceof PdfRenderError ? error.diagnostics : undefined,
      },
    }
  }
  process.send?.(reply)
})

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start)
  return Math.round((used.user + used.system) / 1000)
}

// The pool went away (the server stopped or crashed): nothing left to render for.
process.on('disconnect', () => process.exit(0))
process.send?.({ ready: true })
