import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { apiTestApp } from '#tests/api-app.ts'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { apiHeaders, subscribedTeacher } from '#tests/subscriber.ts'

// The school details at /api/v1/auth/profile/school (every answer checked against the OpenAPI
// document): read, saved as JSON or as a form with a logo, the logo served like a profile picture,
// refused when it is not an image, and removed.

let app: ReturnType<typeof apiTestApp>
let services: ReturnType<typeof testServices>
const testDb = setupTestDatabase((db) => {
  services = testServices(db)
  app = apiTestApp(services)
  return Promise.resolve()
})

const png = () =>
  sharp({ create: { width: 300, height: 100, channels: 3, background: { r: 15, g: 93, b: 82 } } })
    .png()
    .toBuffer()

async function teacher() {
  const user = await subscribedTeacher(testDb().db, { subscribed: false })
  return apiHeaders(testDb().db, services.env.SESSION_SECRET, user.id, 'en')
}

type School = {
  school_name: string
  education_office: string | null
  principal_name: string | null
  counsellor_name: string | null
  students: 'boys' | 'girls'
  logo_url: string | null
}
const schoolOf = async (res: Response) => ((await res.json()) as { data: { school: School | null } }).data.school

describe('/api/v1/auth/profile/school', () => {
  it('is null until saved, then each teacher reads her own', async () => {
    const headers = await teacher()
    const other = await teacher()
    expect(await schoolOf(await app.request('/api/v1/auth/profile/school', { headers }))).toBeNull()
    const put = await app.request('/api/v1/auth/profile/school', {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        school_name: 'King Fahd Intermediate',
        education_office: 'Riyadh Education',
        principal_name: 'Saad Alotaibi',
      }),
    })
    expect(put.status).toBe(200)
    const saved = {
      school_name: 'King Fahd Intermediate',
      education_office: 'Riyadh Education',
      principal_name: 'Saad Alotaibi',
      counsellor_name: null,
      students: 'boys',
      logo_url: null,
    }
    expect(await schoolOf(put)).toEqual(saved)
    expect(await schoolOf(await app.request('/api/v1/auth/profile/school', { headers }))).toEqual(saved)
    expect(await schoolOf(await app.request('/api/v1/auth/profile/school', { headers: other }))).toBeNull()
    expect((await app.request('/api/v1/auth/profile/school')).status).toBe(401)
  })

  it('keeps whom the school teaches (boys until said otherwise) and refuses anything but boys or girls', async () => {
    const headers = await teacher()
    const put = (body: Record<string, unknown>) =>
      app.request('/api/v1/auth/profile/school', {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    expect((await schoolOf(await put({ school_name: 'Al-Noor Girls Intermediate', students: 'girls' })))?.students).toBe('girls')
    // Left out: kept as it was.
    expect((await schoolOf(await put({ school_name: 'Al-Noor Girls Intermediate School' })))?.students).toBe('girls')
    const refused = await put({ school_name: 'Al-Noor', students: 'mixed' })
    expect(refused.status).toBe(422)
    expect(((await refused.json()) as { errors: unknown }).errors).toEqual({ students: ['Choose a boys’ school or a girls’ school'] })
    expect((await schoolOf(await app.request('/api/v1/auth/profile/school', { headers })))?.students).toBe('girls')
  })

  it('refuses a school without a name, in the request’s language', async () => {
    const headers = await teacher()
    const res = await app.request('/api/v1/auth/profile/school', {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ school_name: ' ' }),
    })
    expect(res.status).toBe(422)
    expect(((await res.json()) as { errors: unknown }).errors).toEqual({ school_name: ['Enter the school’s name'] })
  })

  it('takes a logo in a form, serves it, refuses a file that is not an image, and removes it', async () => {
    const headers = await teacher()
    const form = new FormData()
    form.set('school_name', 'King Fahd Intermediate')
    form.set('logo', new File([new Uint8Array(await png())], 'logo.png', { type: 'image/png' }))
    const res = await app.request('/api/v1/auth/profile/school', { method: 'PUT', headers, body: form })
    expect(res.status).toBe(200)
    const logoUrl = (await schoolOf(res))?.logo_url
    expect(logoUrl).toMatch(/^\/files\/logos\/[0-9a-f-]{36}\.webp$/)
    const served = await app.request(logoUrl!)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/webp')
    expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ width: 300, height: 100 })

    const wrong = new FormData()
    wrong.set('school_name', 'King Fahd Intermediate')
    wrong.set('logo', new File(['just some text'], 'logo.png', { type: 'image/png' }))
    const refused = await app.request('/api/v1/auth/profile/school', { method: 'PUT', headers, body: wrong })
    expect(refused.status).toBe(422)
    expect(((await refused.json()) as { errors: unknown }).errors).toEqual({ logo: ['The logo must be a PNG, JPEG or WebP image'] })

    const removed = await app.request('/api/v1/auth/profile/school/logo', { method: 'DELETE', headers })
    expect(removed.status).toBe(200)
    expect((await app.request(logoUrl!)).status).toBe(404)
    expect((await schoolOf(await app.request('/api/v1/auth/profile/school', { headers })))?.logo_url).toBeNull()
    expect((await app.request('/api/v1/auth/profile/school/logo', { method: 'DELETE', headers })).status).toBe(404)
  })
})
