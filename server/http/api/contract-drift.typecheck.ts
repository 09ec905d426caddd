// Never run: typechecked with the rest (npm run typecheck). It proves that an answer drifting
// from its shape fails to compile: each `@ts-expect-error` below must meet its error, or the
// typecheck fails ("unused directive") — a handler answering a field its shape lacks, one
// leaving a field out, one answering data where its contract answers none, and a serializer
// typed by its shape answering a field the shape lacks.
import { z } from '#app/lib/zod.ts'
import type { Wire } from '#app/lib/wire.server.ts'
import { createRoutes } from './contract.ts'

const { route } = createRoutes()
const teacherWire = z.object({ id: z.string(), name: z.string(), subjects: z.array(z.string()) })

route(
  { method: 'get', path: '/drift/extra', tag: 'Drift', summary: 'A field the shape lacks', auth: 'none', data: teacherWire },
  async (_c, { reply }) =>
    // @ts-expect-error `phone` is not a field of the answer's shape
    reply({ id: 't1', name: 'Noura', subjects: ['العلوم'], phone: '+966500000000' }),
)

route(
  { method: 'get', path: '/drift/missing', tag: 'Drift', summary: 'A field left out', auth: 'none', data: teacherWire },
  async (_c, { reply }) =>
    // @ts-expect-error `subjects` is missing
    reply({ id: 't1', name: 'Noura' }),
)

route({ method: 'get', path: '/drift/none', tag: 'Drift', summary: 'An answer with no data', auth: 'none' }, async (_c, { reply }) =>
  // @ts-expect-error the contract answers `data: null`
  reply({ id: 't1' }),
)

export function teacherToJson(teacher: { id: string; name: string }): Wire<typeof teacherWire> {
  // @ts-expect-error `email` is not a field of the shape
  return { id: teacher.id, name: teacher.name, subjects: [], email: 'noura@school.sa' }
}
