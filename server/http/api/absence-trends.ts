import {
  absenceComparisonJson,
  absenceComparisonWire,
  absenceTrends,
  absenceTrendsJson,
  absenceTrendsWire,
  compareAbsence,
} from '#app/features/absence-trends/index.server.ts'
import { messageTemplatesSchema, templatesWire } from '#app/features/parent-messages/index.ts'
import { messageTemplatesOf, messageTemplatesWire, saveMessageTemplates } from '#app/features/parent-messages/index.server.ts'
import { createRoutes, notFound, say } from './contract.ts'

// Following students up across analyses (issue 18): absence trends along a school's uploads, two
// analyses compared, and the teacher's parent message templates.

export function absenceTrendsRoutes() {
  const routes = createRoutes()
  const { route } = routes

  route(
    {
      method: 'get',
      path: '/absence/trends',
      tag: 'Analyses',
      summary: 'Absence trends across a school’s analyses',
      description:
        'The teacher’s absence analyses of one school (the school named in each file; those naming none go together), the newest twelve, oldest first: the school’s and each classroom’s attendance rate and unexcused days per upload; with `q`, the students found by name along the uploads.',
      auth: 'subscriber',
      query: [
        {
          name: 'school',
          description: 'The school as `schools` names it (empty: the analyses without one); default: the newest analysis’ school',
          schema: { type: 'string' },
        },
        { name: 'q', description: 'A student’s name: its first three or more words', schema: { type: 'string' } },
      ],
      data: absenceTrendsWire,
      errors: [422],
    },
    async (c, { session, reply }) => {
      const trends = await absenceTrends({
        db: c.get('ctx').db,
        userId: session.user.id,
        school: c.req.query('school'),
        q: c.req.query('q')?.trim() || null,
      })
      return reply(absenceTrendsJson(trends))
    },
  )

  route(
    {
      method: 'get',
      path: '/absence/compare',
      tag: 'Analyses',
      summary: 'Two absence analyses compared',
      description:
        'The change per classroom (attendance rate, unexcused days), the ten students whose days missed rose most, and the students new to a step of the teacher’s ladder; `b` is read as the later analysis. Students are matched by ID, else by name, grade and classroom.',
      auth: 'subscriber',
      query: [
        { name: 'a', description: 'The earlier analysis’ id', schema: { type: 'string', format: 'uuid' }, required: true },
        { name: 'b', description: 'The later analysis’ id', schema: { type: 'string', format: 'uuid' }, required: true },
      ],
      data: absenceComparisonWire,
      errors: [404],
    },
    async (c, { session, reply }) => {
      const a = c.req.query('a') ?? ''
      const b = c.req.query('b') ?? ''
      if (!a || !b) return notFound()
      return reply(absenceComparisonJson(await compareAbsence({ db: c.get('ctx').db, userId: session.user.id, a, b })))
    },
  )

  route(
    {
      method: 'get',
      path: '/settings/message-templates',
      tag: 'Analyses',
      summary: 'The parent message templates',
      description: 'Arabic and English, per escalation document and for a same-day absence; the defaults until changed.',
      auth: 'subscriber',
      data: messageTemplatesWire,
    },
    async (c, { session, reply }) => reply(templatesWire(await messageTemplatesOf({ db: c.get('ctx').db, userId: session.user.id }))),
  )

  route(
    {
      method: 'put',
      path: '/settings/message-templates',
      tag: 'Analyses',
      summary: 'Change the parent message templates',
      description:
        'Every template, each 1 to 1,000 characters, with no placeholder but {student} {classroom} {count} {dates} {school} or their Arabic names {اسم الطالب} {الصف والفصل} {عدد الأيام} {التواريخ} {اسم المدرسة} (the Arabic defaults use these). Every message is filled from them from then on. Hallil sends no message itself.',
      auth: 'subscriber',
      body: { kind: 'json', schema: messageTemplatesSchema, name: 'ParentMessageTemplatesRequest' },
      data: messageTemplatesWire,
      errors: [422],
    },
    async (c, { body, session, reply }) => {
      const saved = await saveMessageTemplates({ db: c.get('ctx').db, userId: session.user.id, templates: body })
      return reply(templatesWire(saved), say(c, 'parent-messages.saved'))
    },
  )

  return routes
}
