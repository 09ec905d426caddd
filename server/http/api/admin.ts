import {
  actOnTeacher,
  adminAuditEntryToJson,
  adminAuditEntryWire,
  adminContactMessageToJson,
  adminContactMessageWire,
  adminPageWire,
  adminReviewToJson,
  adminReviewWire,
  adminTeacherToJson,
  adminTeacherWire,
  answerContactMessage,
  answerMessageSchema,
  decideReviewAsOperator,
  findContactMessage,
  limitOperatorWrites,
  listContactMessages,
  listOperatorActions,
  listReviewsForOperators,
  markMessageHandled,
  messageFilters,
  operatorOf,
  searchTeachers,
  teacherActions,
  type MessageFilter,
  type ReviewStatus,
} from '#app/features/operators/index.server.ts'
import { reviewStatuses } from '#app/platform/db/schema.ts'
import { z } from '#app/lib/zod.ts'
import { createRoutes, say, type C } from './contract.ts'

// The operator area's endpoints (docs/operators.md): the same use cases as its pages. Every one
// is `auth: 'operator'`, and index.ts answers 404 on /admin/* to anyone who is not an operator.

const TAG = 'Operators'
const pageQuery = { name: 'page', description: 'The page, from 1', schema: { type: 'integer', minimum: 1 } } as const
const idOf = (c: C) => c.req.param('id') ?? ''

export function adminRoutes() {
  const routes = createRoutes()
  const { route } = routes

  route(
    {
      method: 'get',
      path: '/admin/teachers',
      tag: TAG,
      summary: 'Find accounts by email, username or name',
      description: 'At most 25, newest first; without `q`, the newest accounts.',
      auth: 'operator',
      query: [{ name: 'q', description: 'Part of an email, username or full name', schema: { type: 'string', maxLength: 100 } }],
      data: z.array(adminTeacherWire),
    },
    async (c, { reply }) => reply((await searchTeachers({ db: c.get('ctx').db, query: c.req.query('q') ?? '' })).map(adminTeacherToJson)),
  )

  const teacherSummaries = {
    deactivate: 'Deactivate an account: every session ends, sign-in is refused',
    reactivate: 'Reactivate a deactivated account',
    'end-sessions': 'End every session and API token of an account',
    'two-factor-off': 'Turn off an account’s two-step verification (its owner is notified)',
  } as const
  const teacherDone = {
    deactivate: 'operators.teachers.done.deactivate',
    reactivate: 'operators.teachers.done.reactivate',
    'end-sessions': 'operators.teachers.done.endSessions',
    'two-factor-off': 'operators.teachers.done.twoFactorOff',
  } as const
  for (const action of teacherActions)
    route(
      {
        method: 'post',
        path: `/admin/teachers/{id}/${action}`,
        tag: TAG,
        summary: teacherSummaries[action],
        description: 'Written to the audit log. 409 on the operator’s own account, or when there is nothing to change.',
        auth: 'operator',
        errors: [404, 409, 429],
      },
      async (c, { session, reply }) => {
        const { db, logger } = c.get('ctx')
        await limitOperatorWrites({ db, operatorId: session.user.id })
        await actOnTeacher({ db, logger, operator: operatorOf(session.user), userId: idOf(c), action })
        return reply(null, say(c, teacherDone[action]))
      },
    )

  route(
    {
      method: 'get',
      path: '/admin/reviews',
      tag: TAG,
      summary: 'Client reviews of one status, newest first',
      auth: 'operator',
      query: [
        { name: 'status', description: 'pending (default), approved or rejected', schema: { type: 'string', enum: [...reviewStatuses] } },
      ],
      data: z.array(adminReviewWire),
    },
    async (c, { reply }) => {
      const asked = c.req.query('status')
      const status: ReviewStatus = reviewStatuses.includes(asked as ReviewStatus) ? (asked as ReviewStatus) : 'pending'
      const { reviews } = await listReviewsForOperators({ db: c.get('ctx').db, status })
      return reply(reviews.map(adminReviewToJson))
    },
  )

  for (const decision of ['approve', 'reject'] as const)
    route(
      {
        method: 'post',
        path: `/admin/reviews/{id}/${decision}`,
        tag: TAG,
        summary: decision === 'approve' ? 'Approve a pending review: it shows on the home page' : 'Reject a pending review',
        description: 'Written to the audit log. 409 for a review already decided.',
        auth: 'operator',
        errors: [404, 409, 429],
      },
      async (c, { session, reply }) => {
        const { db } = c.get('ctx')
        await limitOperatorWrites({ db, operatorId: session.user.id })
        await decideReviewAsOperator({ db, operator: operatorOf(session.user), reviewId: idOf(c), decision })
        return reply(null, say(c, `operators.reviews.done.${decision}`))
      },
    )

  route(
    {
      method: 'get',
      path: '/admin/messages',
      tag: TAG,
      summary: 'Contact messages, newest first, 30 a page',
      auth: 'operator',
      query: [
        { name: 'state', description: 'open (default), handled or all', schema: { type: 'string', enum: [...messageFilters] } },
        pageQuery,
      ],
      data: adminPageWire('messages').extend({ messages: z.array(adminContactMessageWire), open: z.int().min(0) }),
    },
    async (c, { reply }) => {
      const asked = c.req.query('state')
      const filter: MessageFilter = messageFilters.includes(asked as MessageFilter) ? (asked as MessageFilter) : 'open'
      const list = await listContactMessages({ db: c.get('ctx').db, filter, page: Number(c.req.query('page') ?? '1') })
      return reply({
        messages: list.messages.map(adminContactMessageToJson),
        page: list.page,
        pages: list.pages,
        total: list.total,
        open: list.open,
      })
    },
  )

  route(
    {
      method: 'get',
      path: '/admin/messages/{id}',
      tag: TAG,
      summary: 'One contact message',
      auth: 'operator',
      data: adminContactMessageWire,
      errors: [404],
    },
    async (c, { reply }) => reply(adminContactMessageToJson(await findContactMessage({ db: c.get('ctx').db, id: idOf(c) }))),
  )

  route(
    {
      method: 'post',
      path: '/admin/messages/{id}/handle',
      tag: TAG,
      summary: 'Mark a contact message handled',
      description: 'Written to the audit log. 409 when it already is.',
      auth: 'operator',
      errors: [404, 409, 429],
    },
    async (c, { session, reply }) => {
      const { db } = c.get('ctx')
      await limitOperatorWrites({ db, operatorId: session.user.id })
      await markMessageHandled({ db, operator: operatorOf(session.user), id: idOf(c) })
      return reply(null, say(c, 'operators.messages.done.handle'))
    },
  )

  route(
    {
      method: 'post',
      path: '/admin/messages/{id}/answer',
      tag: TAG,
      summary: 'Answer a contact message by email',
      description:
        'Mailed to the sender in the message’s language, then kept with the message (text, when, by whom), which is marked handled; written to the audit log. 409 when already answered; 503 when the mail could not be sent (nothing kept).',
      auth: 'operator',
      body: { kind: 'json', schema: answerMessageSchema, name: 'AnswerMessageRequest' },
      errors: [404, 409, 422, 429, 503],
    },
    async (c, { body, session, reply }) => {
      const { db, mailer, logger } = c.get('ctx')
      await limitOperatorWrites({ db, operatorId: session.user.id })
      await answerContactMessage({ db, mailer, logger, operator: operatorOf(session.user), id: idOf(c), answer: body.answer })
      return reply(null, say(c, 'operators.messages.done.answer'))
    },
  )

  route(
    {
      method: 'get',
      path: '/admin/audit',
      tag: TAG,
      summary: 'The audit log of operator actions, newest first, 50 a page',
      auth: 'operator',
      query: [pageQuery],
      data: adminPageWire('entries').extend({ entries: z.array(adminAuditEntryWire) }),
    },
    async (c, { reply }) => {
      const log = await listOperatorActions({ db: c.get('ctx').db, page: Number(c.req.query('page') ?? '1') })
      return reply({ entries: log.entries.map(adminAuditEntryToJson), page: log.page, pages: log.pages, total: log.total })
    },
  )

  return routes
}
