import { contactSchema, sendContactMessage } from '#app/features/content/index.server.ts'
import { DomainError } from '#app/lib/errors.ts'
import { apiLang, createRoutes, say } from './contract.ts'

// A message to the team, from anyone.

export function contentRoutes() {
  const routes = createRoutes()
  routes.route(
    {
      method: 'post',
      path: '/contact',
      tag: 'Packages and contact',
      summary: 'Send a message to the team',
      auth: 'none',
      body: { kind: 'json', schema: contactSchema, name: 'ContactRequest' },
      status: 201,
      errors: [413, 422, 429],
    },
    async (c, { body, reply }) => {
      const { db, clientIp } = c.get('ctx')
      const result = await sendContactMessage({ db, input: body, lang: apiLang(c), clientIp })
      if (!result.ok) throw new DomainError(429, 'common.errors.tooManyRequests', undefined, result.retryAfterSeconds)
      return reply(null, say(c, 'contact.sent'))
    },
  )
  return routes
}
