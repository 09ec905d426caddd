import { createReadableStreamFromReadable } from '@react-router/node'
import { renderToPipeableStream } from 'react-dom/server'
import type { AppLoadContext, EntryContext } from 'react-router'
import { ServerRouter } from 'react-router'
import { isPaintFirst } from '#app/document/paint-first.ts'
import { prepareDocumentStream } from '#app/document/paint-first.server.ts'
import { StylesheetTextProvider } from '#app/document/inline-stylesheet.tsx'
import { NonceProvider } from '#app/ui/nonce.tsx'

export const streamTimeout = 5_000

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders })
  }
  const nonce = loadContext.cspNonce
  // Decisions 013 and 016: most pages paint before their modules load; a page may choose not to.
  const handles = routerContext.staticHandlerContext.matches.map((match) => routerContext.routeModules[match.route.id]?.handle)
  const paintFirst = isPaintFirst(loadContext.env.PAINT_FIRST, handles)
  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode
    // Pages carry no deferred data, so the whole document is rendered before the first
    // byte: crawlers, screen readers and slow phones all get complete HTML and a true status.
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <StylesheetTextProvider value={loadContext.stylesheetText}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </StylesheetTextProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          const body = prepareDocumentStream(nonce, { paintFirst })
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          pipe(body)
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status }))
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          status = 500
          loadContext.logger.error({ err: error }, 'render error')
        },
      },
    )
    setTimeout(abort, streamTimeout + 1000)
  })
}
