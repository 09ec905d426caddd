import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { listUserInvoices } from '#app/features/billing/index.server.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { rateLimits } from '#app/platform/db/schema.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { loader as analysisExportLoader } from '#app/routes/analysis-export.tsx'
import { loader as examPdfLoader } from '#app/routes/exams-pdf.tsx'
import { loader as examPreviewLoader } from '#app/routes/exams-preview.tsx'
import { loader as examPrintLoader } from '#app/routes/exams-print.tsx'
import { loader as invoicePdfLoader } from '#app/routes/invoice-pdf.tsx'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { sampleExamBody, subscribedTeacher } from '#tests/exams.ts'
import { apiTestApp } from '#tests/api-app.ts'

// PDF and Excel downloads per teacher per hour (EXPORTS_PER_HOUR, here 4): the analysis
// exports, the test PDF and the invoice PDF, through the pages and the API, share one allowance.

const fixtures = resolve(import.meta.dirname, '../../../app/features/absence/fixtures')

let app: ReturnType<typeof apiTestApp>
let ctx: RequestContext
setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
  const services = testServices(db, { EXPORTS_PER_HOUR: '4' })
  app = apiTestApp(services)
  ctx = testContext(db, { env: services.env, files: services.files, logger: services.logger, mailer: services.mailer })
})

type Teacher = Awaited<ReturnType<typeof subscribedTeacher>> & { analysis: string; exam: string; invoice: string }

async function teacherWithFiles(): Promise<Teacher> {
  const t = await subscribedTeacher(ctx)
  const headers = { authorization: `Bearer ${t.token}` }
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(readFileSync(`${fixtures}/small-ar.xlsx`))]), 'report.xlsx')
  const analysis = await app.request('/api/v1/analyses/absence', { method: 'POST', headers, body: form })
  const exam = await app.request('/api/v1/exams', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(sampleExamBody()),
  })
  expect([analysis.status, exam.status]).toEqual([201, 201])
  const [invoice] = await listUserInvoices({ db: ctx.db, userId: t.user.id })
  return {
    ...t,
    analysis: ((await analysis.json()) as { data: { id: string } }).data.id,
    exam: ((await exam.json()) as { data: { id: string } }).data.id,
    invoice: invoice!.id,
  }
}

const api = (t: Teacher, path: string, lang = 'en') =>
  app.request(`/api/v1/${path}`, { headers: { authorization: `Bearer ${t.token}`, 'accept-language': lang } })

/** A page loader's answer, returned or thrown, as a Response. */
async function page(
  loader: (args: never) => Promise<unknown>,
  t: Teacher,
  path: string,
  params: Record<string, string>,
  referer?: string,
): Promise<Response> {
  const headers: Record<string, string> = { cookie: t.cookie }
  if (referer) headers.referer = referer
  const request = new Request(`http://localhost/${path}`, { headers })
  const answer = await loader({ request, params, context: ctx } as never).catch((thrown: unknown) => thrown)
  if (!(answer instanceof Response)) throw new Error(`${path}: not a Response`)
  return answer
}

let a: Teacher
let b: Teacher
beforeAll(async () => {
  a = await teacherWithFiles()
  b = await teacherWithFiles()
})

describe('downloads per teacher per hour', () => {
  it('are shared by the pages and the API; past the allowance a page says so in Arabic, the API answers 429 JSON, both with Retry-After', async () => {
    expect((await api(a, `analyses/${a.analysis}/export.xlsx`)).status).toBe(200)
    expect((await api(a, `exams/${a.exam}/pdf`)).status).toBe(200)
    expect((await page(invoicePdfLoader, a, `ar/invoices/${a.invoice}/pdf`, { lang: 'ar', invoiceId: a.invoice })).status).toBe(200)
    expect(
      (await page(analysisExportLoader, a, `ar/analyses/${a.analysis}/export.pdf`, { lang: 'ar', analysisId: a.analysis })).status,
    ).toBe(200)

    // The fifth download of the hour, from the report page: a page in Arabic instead of the file.
    const limited = await page(
      examPdfLoader,
      a,
      `ar/exams/${a.exam}/pdf`,
      { lang: 'ar', examId: a.exam },
      `http://localhost/ar/exams/${a.exam}/print?answers=1`,
    )
    expect(limited.status).toBe(429)
    expect(limited.headers.get('content-type')).toBe('text/html; charset=utf-8')
    // The hour started with the first download, moments ago.
    const wait = Number(limited.headers.get('retry-after'))
    expect(wait).toBeGreaterThan(3000)
    expect(wait).toBeLessThanOrEqual(3600)
    const html = await limited.text()
    expect(html).toContain('<html lang="ar" dir="rtl">')
    expect(html).toContain('<h1>تنزيلات كثيرة</h1>')
    expect(html).toContain('نزّلت ملفات كثيرة خلال الساعة الأخيرة.')
    expect(html).toContain(`يمكنك التنزيل مرة أخرى بعد ${Math.ceil(wait / 60)} دقيقة.`)
    expect(html).toContain(`<a href="/ar/exams/${a.exam}/print?answers=1">العودة</a>`)

    // The API, in English and Arabic: docs/api.md's error shape.
    const apiLimited = await api(a, `invoices/${a.invoice}/pdf`)
    expect(apiLimited.status).toBe(429)
    expect(await apiLimited.json()).toEqual({
      message: 'You have downloaded a lot of files in the last hour. Please wait a little and try again.',
    })
    expect(Number(apiLimited.headers.get('retry-after'))).toBeGreaterThan(3000)
    const arabic = await api(a, `analyses/${a.analysis}/export.pdf`, 'ar')
    expect(arabic.status).toBe(429)
    expect(await arabic.json()).toEqual({ message: 'نزّلت ملفات كثيرة خلال الساعة الأخيرة. يرجى الانتظار قليلاً ثم المحاولة مرة أخرى.' })

    // Another teacher has an allowance of their own; another's id is still "not found".
    expect((await api(b, `invoices/${b.invoice}/pdf`)).status).toBe(200)
    expect((await api(b, `exams/${a.exam}/pdf`)).status).toBe(404)
    expect((await api(a, `exams/${b.exam}/pdf`)).status).toBe(404)

    // An hour later the allowance is back.
    await ctx.db
      .update(rateLimits)
      .set({ resetAt: new Date(Date.now() - 1000) })
      .where(eq(rateLimits.key, `export:${a.user.id}`))
    expect((await api(a, `exams/${a.exam}/pdf`)).status).toBe(200)
  })

  it('send a page back to the home page when the link came from another site, in English', async () => {
    const t = await teacherWithFiles()
    for (let i = 0; i < 4; i++) expect((await api(t, `invoices/${t.invoice}/pdf`)).status).toBe(200)
    const limited = await page(
      invoicePdfLoader,
      t,
      `en/invoices/${t.invoice}/pdf`,
      { lang: 'en', invoiceId: t.invoice },
      'https://evil.example/en/profile',
    )
    expect(limited.status).toBe(429)
    const html = await limited.text()
    expect(html).toContain('<html lang="en" dir="ltr">')
    expect(html).toContain('<h1>Too many downloads</h1>')
    expect(html).toMatch(/You can download again in (\d+ minutes|one minute)\./)
    expect(html).toContain('<a href="/en">Back</a>')
  })

  it('count the print page and its preview like the PDF: each costs the render they share', async () => {
    const t = await teacherWithFiles()
    const params = { lang: 'en', examId: t.exam }
    // The print page answers its data (not a Response) when allowed.
    const print = () =>
      examPrintLoader({
        request: new Request(`http://localhost/en/exams/${t.exam}/print`, { headers: { cookie: t.cookie } }),
        params,
        context: ctx,
      } as never)
    await print()
    expect((await page(examPreviewLoader, t, `en/exams/${t.exam}/preview.svg`, params)).status).toBe(200)
    await print()
    expect((await page(examPreviewLoader, t, `en/exams/${t.exam}/preview.svg`, params)).status).toBe(200)
    // Four renders asked for: the fifth, whichever it is, is refused.
    const limited = await print().catch((thrown: unknown) => thrown)
    expect(limited).toBeInstanceOf(Response)
    expect((limited as Response).status).toBe(429)
    expect((await page(examPreviewLoader, t, `en/exams/${t.exam}/preview.svg`, params)).status).toBe(429)
    expect((await api(t, `exams/${t.exam}/pdf`)).status).toBe(429)
  })
})
