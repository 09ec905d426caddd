import type { ServerBuild } from 'react-router'
import type { AppServices } from '#app/platform/context.server.ts'
import { createHttpApp } from '#server/http/http.ts'
import { checkedApp } from './api-conformance.ts'

/** No pages are rendered by the API tests: a build with no routes is enough. */
const noPages = { assets: { version: 'test', url: '', entry: { module: '', imports: [] }, routes: {} } } as unknown as ServerBuild

/**
 * The whole HTTP app as the API tests use it: production mode, and every answer of /api/v1
 * checked against the OpenAPI document (tests/api-conformance.ts) before the test sees it.
 */
export function apiTestApp(services: AppServices) {
  return checkedApp(createHttpApp({ services, getBuild: () => noPages, mode: 'production' }))
}
