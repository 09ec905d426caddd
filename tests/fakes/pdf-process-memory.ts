// A stand-in for app/platform/pdf-process.ts that speaks the render pool's protocol and uses
// memory on request, so the pool's memory rules can be tested without depending on how much
// typst happens to keep: `keep:N` holds N MB for the process's life (what a render leaves
// behind), `spike:N` holds N MB for half a second and lets it go (a render's own peak).
const kept: Buffer[] = []

const hold = (mb: number) => Buffer.alloc(mb * 1024 * 1024, 1)

process.on('message', async (request: { id: number; source: string }) => {
  const [what, size] = request.source.split(':')
  const mb = Number(size)
  if (what === 'keep') kept.push(hold(mb))
  if (what === 'spike') {
    const peak = hold(mb)
    await new Promise((resolve) => setTimeout(resolve, 500))
    peak.fill(0)
  }
  process.send?.({ id: request.id, ok: true, result: { pages: 1 }, peakRssMb: 0, cpuMs: 0 })
})
process.on('disconnect', () => process.exit(0))
process.send?.({ ready: true })
