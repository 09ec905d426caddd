import { describe, expect, it } from 'vitest'
import { absenceStorage } from '#app/features/absence/index.server.ts'
import { analyseAbsence } from '#app/features/absence/index.ts'
import { saveAnalysis } from '#app/features/analyses/index.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import type { SheetRow } from '#app/platform/xlsx/types.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { subscribedTeacher } from '#tests/exams.ts'
import { loader as compareLoader } from './absence-compare.tsx'
import { loader as trendsLoader } from './absence-trends.tsx'
import { action as templatesAction, loader as templatesLoader } from './message-templates.tsx'
import { loader as messagesLoader } from './parent-messages.tsx'

// Issue 18's pages, their loaders and action called as React Router calls them: another
// teacher's analysis is not found, a step's messages are the teacher's own, the templates form
// saves for her alone.

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

type Ctx = ReturnType<typeof testContext>
const args = (ctx: Ctx, request: Request) => ({ request, params: { lang: 'en' }, context: ctx }) as never
const get = (cookie: string, path: string) => new Request(`http://localhost/en/${path}`, { headers: { cookie } })

/** A week of daily records: Sara misses `missed` days unexcused (a guardian's number given), Hind none. */
function week(missed: number): SheetRow[] {
  const header = ['اسم الطالب', 'رقم الهوية', 'الصف', 'الفصل', 'التاريخ', 'الحالة', 'جوال ولي الأمر']
  const days = ['2025-09-07', '2025-09-08', '2025-09-09', '2025-09-10', '2025-09-11']
  const rows = [
    ...days.map((d, i) => ['سارة علي أحمد', '1100000001', 'الأول المتوسط', '1', d, i < missed ? 'غائب بدون عذر' : 'حاضر', '0551234567']),
    ...days.map((d) => ['هند عمر ناصر', '1100000004', 'الأول المتوسط', '1', d, 'حاضر', '']),
  ]
  return [header, ...rows].map((cells, i) => ({ row: i + 1, cells }))
}

async function analysisOf(ctx: Ctx, userId: string, missed: number, to = '2025-09-11'): Promise<string> {
  const analysis = analyseAbsence(week(missed))
  const { records, entries } = absenceStorage(analysis)
  const saved = await saveAnalysis({
    db: ctx.db,
    input: { userId, kind: 'absence', title: `week ${missed}`, meta: {}, headline: { to }, report: analysis.report, records },
    entries,
  })
  return saved.id
}

/** An analysis saved before students were entries: its students in its row. */
async function oldAnalysisOf(ctx: Ctx, userId: string, missed: number, to: string): Promise<string> {
  const analysis = analyseAbsence(week(missed))
  const base = { userId, kind: 'absence' as const, title: `old ${missed}`, meta: {}, headline: { to }, report: analysis.report }
  return (await saveAnalysis({ db: ctx.db, input: { ...base, records: analysis.students } })).id
}

const statusOf = async (run: Promise<unknown>) => {
  try {
    await run
    return 200
  } catch (error) {
    return (error as { init?: { status: number }; status?: number }).init?.status ?? (error as { status: number }).status
  }
}

describe('issue 18’s pages', () => {
  it('answer 404 for another teacher’s analysis, and show a teacher only her own', async () => {
    const ctx = testContext(testDb())
    const owner = await subscribedTeacher(ctx)
    const other = await subscribedTeacher(ctx)
    const a = await analysisOf(ctx, owner.user.id, 2)
    const b = await analysisOf(ctx, owner.user.id, 3)
    expect(await statusOf(compareLoader(args(ctx, get(other.cookie, `absence-compare?a=${a}&b=${b}`))))).toBe(404)
    expect(await statusOf(messagesLoader(args(ctx, get(other.cookie, `parent-messages?id=${b}`))))).toBe(404)
    const theirs = (await trendsLoader(args(ctx, get(other.cookie, 'absence-trends')))) as { data: { uploads: unknown[] } }
    expect(theirs.data.uploads).toEqual([])

    // Her own: the comparison (Sara, 2 then 3 unexcused days, reaches the first warning).
    const mine = (await compareLoader(args(ctx, get(owner.cookie, `absence-compare?a=${a}&b=${b}`)))) as {
      data: { comparison: { newToStep: { name: string; document: string }[] } }
    }
    expect(mine.data.comparison.newToStep.map((s) => [s.name, s.document])).toEqual([['سارة علي أحمد', 'firstWarning']])
  })

  it('follows a student through an analysis saved before entries and one saved since', async () => {
    const ctx = testContext(testDb())
    const { user, cookie } = await subscribedTeacher(ctx)
    await oldAnalysisOf(ctx, user.id, 1, '2025-09-04')
    await analysisOf(ctx, user.id, 3, '2025-09-11')
    const page = await trendsLoader(args(ctx, get(cookie, `absence-trends?q=${encodeURIComponent('سارة علي أحمد')}`)))
    // 1 then 3 unexcused days of 5: 80% then 40%.
    expect(page.data.students).toHaveLength(1)
    expect(page.data.students?.[0]?.points.map((p) => [p?.unexcused, p?.attendanceRate])).toEqual([
      [1, 80],
      [3, 40],
    ])
    // Two words: the timeline, and the search field says why.
    const short = await trendsLoader(args(ctx, get(cookie, `absence-trends?q=${encodeURIComponent('سارة علي')}`)))
    expect(short.data.searchError).toBe('absence.search.tooShort')
    expect(short.data.uploads).toHaveLength(2)
  })

  it('lists a step’s students with its message, to the guardian’s number', async () => {
    const ctx = testContext(testDb())
    const { user, cookie } = await subscribedTeacher(ctx)
    const id = await analysisOf(ctx, user.id, 3)
    const page = (await messagesLoader(args(ctx, get(cookie, `parent-messages?id=${id}&step=0`)))) as {
      list: { total: number; students: { name: string; message: { kind: string; text: string; whatsApp: string } | null }[] }
    }
    expect(page.list.total).toBe(1)
    expect(page.list.students[0]?.name).toBe('سارة علي أحمد')
    expect(page.list.students[0]?.message?.kind).toBe('firstWarning')
    // 7, 8 and 9 September 2025, in English: the default English template.
    expect(page.list.students[0]?.message?.text).toContain('has 3 days of unexcused absence (7 Sept 2025, 8 Sept 2025, 9 Sept 2025)')
    expect(page.list.students[0]?.message?.whatsApp).toMatch(/^https:\/\/wa\.me\/966551234567\?text=Dear%20guardian/)
    // The second step (5 days): nobody.
    const second = (await messagesLoader(args(ctx, get(cookie, `parent-messages?id=${id}&step=1`)))) as { list: { total: number } }
    expect(second.list.total).toBe(0)
  })

  it('saves the templates for the teacher alone and refuses an unknown placeholder', async () => {
    const ctx = testContext(testDb())
    const { cookie } = await subscribedTeacher(ctx)
    const other = await subscribedTeacher(ctx)
    const { templates } = (await templatesLoader(args(ctx, get(cookie, 'message-templates')))) as { templates: Record<string, string> }
    const post = (fields: Record<string, string>) =>
      new Request('http://localhost/en/message-templates', {
        method: 'POST',
        body: new URLSearchParams(fields),
        headers: { cookie, origin: 'http://localhost' },
      })
    const refused = (await templatesAction(args(ctx, post({ ...templates, en_same_day: 'Hello {parent}' })))) as {
      init: { status: number }
      data: { errors: Record<string, string[]> }
    }
    expect(refused.init.status).toBe(422)
    expect(refused.data.errors).toEqual({ en_same_day: ['parent-messages.errors.placeholder'] })
    await expect(templatesAction(args(ctx, post({ ...templates, en_same_day: '{student} is absent today.' })))).rejects.toMatchObject({
      status: 302,
    })
    const saved = (await templatesLoader(args(ctx, get(cookie, 'message-templates')))) as { templates: Record<string, string> }
    expect(saved.templates.en_same_day).toBe('{student} is absent today.')
    const theirs = (await templatesLoader(args(ctx, get(other.cookie, 'message-templates')))) as { templates: Record<string, string> }
    expect(theirs.templates.en_same_day).toBe(templates.en_same_day)
  })
})
