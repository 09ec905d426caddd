import { documentName } from '#app/features/accounts/index.ts'
import { issueSchema, updateSchema } from '#app/features/follow-up/index.ts'
import {
  deleteRegisterEntry,
  findFollowUpRegister,
  followUpRegisterExport,
  recordIssue,
  registerEntryJson,
  registerEntryWire,
  registerJson,
  registerWire,
  updateRegisterEntry,
} from '#app/features/follow-up/index.server.ts'
import { limitExports } from '#app/platform/export-limit.server.ts'
import { apiLang, createRoutes, say, type C } from './contract.ts'

// The follow-up register (docs/follow-up.md): the teacher's own only (another teacher's entry or
// student answers 404), for subscribers. The same domain functions as the page.

const PDF = ['application/pdf']
const XLSX = ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']
const yearQuery = {
  name: 'school_year',
  description: 'The school year by the year it starts in (2025 for 2025–2026); the latest with analyses or entries when not given',
  schema: { type: 'integer' },
} as const

const schoolYearOf = (c: C) => {
  const year = Number(c.req.query('school_year'))
  return Number.isInteger(year) && year > 0 ? year : null
}

export function followUpRoutes() {
  const routes = createRoutes()
  const { route, fileRoute } = routes

  route(
    {
      method: 'get',
      path: '/follow-up/register',
      tag: 'Follow-up',
      summary: 'The follow-up register of a school year',
      description:
        'Per classroom the students at a step, the documents issued and those still due; the students owed a document (each at the highest step of the latest analysis with them); the entries.',
      auth: 'subscriber',
      query: [yearQuery],
      data: registerWire,
    },
    async (c, { session, reply }) =>
      reply(registerJson(await findFollowUpRegister({ db: c.get('ctx').db, userId: session.user.id, schoolYear: schoolYearOf(c) }))),
  )

  route(
    {
      method: 'post',
      path: '/follow-up/register',
      tag: 'Follow-up',
      summary: 'Record a document issued',
      description:
        'The student as the register names it (`student`), a step the student has reached, the school year, the date, who issued it, the status (`awaiting`, `signed`, `declined`) and notes. The register keeps its own copy of the student and the step. 409 when that step is already recorded for the student.',
      auth: 'subscriber',
      body: { kind: 'json', schema: issueSchema, name: 'FollowUpIssueRequest' },
      status: 201,
      data: registerEntryWire,
      errors: [404, 409, 422],
    },
    async (c, { body, session, reply }) => {
      const entry = await recordIssue({ db: c.get('ctx').db, userId: session.user.id, issue: body })
      return reply(registerEntryJson(entry), say(c, 'follow-up-register.saved'))
    },
  )

  route(
    {
      method: 'patch',
      path: '/follow-up/register/{id}',
      tag: 'Follow-up',
      summary: 'Change an entry',
      description: 'Its status, notes, date or issuer: the fields sent change.',
      auth: 'subscriber',
      body: { kind: 'json', schema: updateSchema, name: 'FollowUpUpdateRequest' },
      data: registerEntryWire,
      errors: [404, 422],
    },
    async (c, { body, session, reply }) => {
      const entry = await updateRegisterEntry({ db: c.get('ctx').db, userId: session.user.id, id: c.req.param('id') ?? '', changes: body })
      return reply(registerEntryJson(entry), say(c, 'follow-up-register.updated'))
    },
  )

  route(
    {
      method: 'delete',
      path: '/follow-up/register/{id}',
      tag: 'Follow-up',
      summary: 'Delete an entry',
      description: 'The student is owed that step’s document again.',
      auth: 'subscriber',
      errors: [404],
    },
    async (c, { session, reply }) => {
      await deleteRegisterEntry({ db: c.get('ctx').db, userId: session.user.id, id: c.req.param('id') ?? '' })
      return reply(null, say(c, 'follow-up-register.deleted'))
    },
  )

  for (const format of ['xlsx', 'pdf'] as const) {
    fileRoute(
      {
        method: 'get',
        path: `/follow-up/register/export.${format}`,
        tag: 'Follow-up',
        summary: format === 'pdf' ? 'The register as PDF' : 'The register as a workbook',
        auth: 'subscriber',
        query: [yearQuery],
        file: format === 'pdf' ? PDF : XLSX,
        errors: [429],
      },
      async (c, { session }) => {
        await limitExports({ ...c.get('ctx'), userId: session.user.id })
        const lang = apiLang(c)
        return followUpRegisterExport({
          db: c.get('ctx').db,
          userId: session.user.id,
          schoolYear: schoolYearOf(c),
          lang,
          format,
          preparedBy: documentName(session.user, lang),
        })
      },
    )
  }

  return routes
}
