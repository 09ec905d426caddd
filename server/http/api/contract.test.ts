import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { DomainError } from '#app/lib/errors.ts'
import { apiConformance } from '#tests/api-conformance.ts'
import { domainErrorResponse, type ApiEnv } from './contract.ts'

// A domain failure as the API answers it: the API's error JSON (docs/api.md), in the request's language.

function answering(error: DomainError) {
  const app = new Hono<ApiEnv>()
  app.post('/api/v1/subscriptions', (c) => domainErrorResponse(c, error))
  return async () => {
    const res = await app.request('/api/v1/subscriptions', { method: 'POST', headers: { 'accept-language': 'en' } })
    const body = await res.text()
    return {
      res,
      body: JSON.parse(body) as unknown,
      verdict: apiConformance().check({ method: 'POST', url: '/api/v1/subscriptions', status: res.status, headers: res.headers, body }),
    }
  }
}

describe('domainErrorResponse', () => {
  it('gives a 422 its errors even when no one field is at fault (a gateway’s refusal), as the document says', async () => {
    const { res, body, verdict } = await answering(new DomainError(422, 'billing.errors.subscriptionFailed'))()
    expect(res.status).toBe(422)
    expect(body).toEqual({ message: 'Subscription failed. Please try again.', errors: {} })
    expect(verdict?.problems).toEqual([])
  })

  it('translates each field’s messages and leaves `errors` out of other statuses without fields', async () => {
    const withField = await answering(new DomainError(422, 'billing.errors.method', { method: ['billing.errors.method'] }))()
    expect(withField.body).toEqual({ message: 'Choose a payment method', errors: { method: ['Choose a payment method'] } })
    const conflict = await answering(new DomainError(409, 'billing.errors.alreadySubscribed'))()
    expect(conflict.res.status).toBe(409)
    expect(Object.keys(conflict.body as object)).toEqual(['message'])
    expect(conflict.verdict?.problems).toEqual([])
  })
})
