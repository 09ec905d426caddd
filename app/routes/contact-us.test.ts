import { describe, expect, it } from 'vitest'
import { contactMessages } from '#app/platform/db/schema.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { action, loader } from './contact-us.tsx'

const testDb = setupTestDatabase()

function post(fields: Record<string, string>) {
  return new Request('http://localhost/ar/contact-us', { method: 'POST', body: new URLSearchParams(fields) })
}

type ActionResult = { ok: boolean; errors: Record<string, string[]>; values: Record<string, string> }

async function callAction(fields: Record<string, string>, lang = 'ar') {
  const result = (await action({ request: post(fields), params: { lang }, context: testContext(testDb()) } as never)) as unknown
  // A data() wrapper carries a status; a plain object is a 200.
  if (result && typeof result === 'object' && 'type' in result && (result as { type: string }).type === 'DataWithResponseInit') {
    const wrapped = result as unknown as { data: ActionResult; init: { status: number } }
    return { status: wrapped.init.status, body: wrapped.data }
  }
  return { status: 200, body: result as ActionResult }
}

describe('contact-us route', () => {
  it('sends the page its messages in the page language', () => {
    const data = loader({ params: { lang: 'en' } } as never)
    expect((data.messages.contact as { title: string }).title).toBe('Contact us')
  })

  it('stores a valid message, then sends the browser back to an empty form with the message as a toast', async () => {
    const answer = await callAction(
      { type: 'suggestion', name: 'Ahmed', email: 'ahmed@example.sa', message: 'Please add a weekly absence summary.' },
      'en',
    ).catch((thrown: unknown) => thrown)
    expect(answer).toBeInstanceOf(Response)
    const redirect = answer as Response
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get('location')).toBe('/en/contact-us?sent=1')
    expect(redirect.headers.get('set-cookie')).toMatch(/^hallil_flash=[^;]*contact\.sent/)
    const rows = await testDb().db.select().from(contactMessages)
    expect(rows.map((r) => [r.type, r.email, r.lang])).toEqual([['suggestion', 'ahmed@example.sa', 'en']])
  })

  it('answers 422 with each field’s error and keeps what was typed', async () => {
    const { status, body } = await callAction({ type: '', name: 'Ahmed', email: 'nope', message: 'hi' })
    expect(status).toBe(422)
    expect(body.ok).toBe(false)
    expect(Object.keys(body.errors).sort()).toEqual(['email', 'message', 'type'])
    expect(body.values).toMatchObject({ name: 'Ahmed', email: 'nope', message: 'hi' })
  })
})
