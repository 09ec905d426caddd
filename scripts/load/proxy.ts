// A round-robin HTTP proxy on loopback, standing where a deployment's load balancer stands in
// the processes scenario (processes.ts). Each request goes to the next backend. A backend that
// refuses the connection (killed, restarting) is passed over for the next one, as a load
// balancer does with a request that never reached its server (nginx's `proxy_next_upstream
// error`); a backend that drops a request it had (killed in the middle of it) gets a 502 marked
// `x-proxy-error`, so the load client counts it apart from the server's own answers. Every
// answer names the backend that served it (`x-served-by`, its index); a request may name the
// ones it prefers (`x-route-to: 2,0`) so a scenario can write through one process and read
// through another, whichever of the others is up.
import http from 'node:http'

export type ProxiedRequest = { method: string; url: string; body: Buffer; servedBy: number; status: number | string }

export interface RoundRobinProxy {
  readonly url: string
  /** Requests each backend answered. */
  readonly served: number[]
  /** Requests each backend dropped (connection reset after it had the request). */
  readonly dropped: number[]
  /** Requests each backend holds right now. */
  readonly inFlight: number[]
  /** Requests sent to each backend so far (answered, dropped or in flight). */
  readonly sent: number[]
  close(): Promise<void>
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer'])

export async function startRoundRobinProxy(options: {
  port: number
  backends: readonly number[]
  /** Called once each request is answered or dropped (the scenario watches the webhooks with it). */
  onAnswered?: (request: ProxiedRequest) => void
}): Promise<RoundRobinProxy> {
  const n = options.backends.length
  const served = options.backends.map(() => 0)
  const dropped = options.backends.map(() => 0)
  const inFlight = options.backends.map(() => 0)
  const sent = options.backends.map(() => 0)
  let next = 0

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const headers: http.OutgoingHttpHeaders = {}
      for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && name !== 'x-route-to') headers[name] = value
      headers['content-length'] = body.length
      const client = req.socket.remoteAddress ?? '127.0.0.1'
      headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${req.headers['x-forwarded-for']}, ${client}` : client
      // The backends in the order they are tried: those the request names, then the others from
      // the next in turn.
      const named = String(req.headers['x-route-to'] ?? '')
        .split(',')
        .filter((part) => part.trim() !== '')
        .map(Number)
        .filter((i) => Number.isInteger(i) && i >= 0 && i < n)
      const from = named.length > 0 ? 0 : next++
      const order = [...new Set([...named, ...Array.from({ length: n }, (_, k) => (from + k) % n)])]
      const done = (servedBy: number, status: number | string) =>
        options.onAnswered?.({ method: req.method ?? 'GET', url: req.url ?? '/', body, servedBy, status })

      const attempt = (tried: number) => {
        const index = order[tried]!
        inFlight[index]!++
        sent[index]!++
        let settled = false
        const settle = () => {
          if (!settled) inFlight[index]!--
          settled = true
        }
        const upstream = http.request(
          // A fresh connection per request: a refused one then always means "never delivered".
          { host: '127.0.0.1', port: options.backends[index], method: req.method, path: req.url, headers, agent: false },
          (answer) => {
            const out: http.OutgoingHttpHeaders = { 'x-served-by': String(index) }
            for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value
            res.writeHead(answer.statusCode ?? 502, out)
            answer.pipe(res)
            answer.on('end', () => {
              settle()
              served[index]!++
              done(index, answer.statusCode ?? 502)
            })
            answer.on('error', () => {
              // Killed while sending its answer: the client's connection is cut too.
              settle()
              dropped[index]!++
              done(index, 'dropped')
              res.destroy()
            })
          },
        )
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (settled) return
          settle()
          if (error.code === 'ECONNREFUSED' && tried + 1 < order.length) return attempt(tried + 1)
          dropped[index]!++
          done(index, error.code ?? 'error')
          if (res.headersSent) return void res.destroy()
          res.writeHead(502, { 'content-type': 'text/plain', 'x-served-by': String(index), 'x-proxy-error': error.code ?? 'error' })
          res.end('backend dropped the request')
        })
        upstream.end(body)
      }
      attempt(0)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', () => resolve())
  })
  return {
    url: `http://127.0.0.1:${options.port}`,
    served,
    dropped,
    inFlight,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
