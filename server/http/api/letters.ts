import { stepDocumentsPdf, stepDocumentsXlsx } from '#app/features/follow-up/index.server.ts'
import { isLang } from '#app/i18n/config.ts'
import { limitExports } from '#app/platform/export-limit.server.ts'
import { apiLang, createRoutes } from './contract.ts'

// A step's follow-up letters (PDF) and their list (Excel) for the caller's own absence analysis
// (docs/follow-up-letters.md). Counted against EXPORTS_PER_HOUR like every other download.

const types = { pdf: ['application/pdf'], xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'] } as const

export function lettersRoutes() {
  const routes = createRoutes()
  for (const format of ['pdf', 'xlsx'] as const) {
    routes.fileRoute(
      {
        method: 'get',
        path: `/analyses/{id}/steps/{step}/letters.${format}`,
        tag: 'Analyses',
        summary: format === 'pdf' ? 'A step’s follow-up letters as PDF' : 'The students of a step’s letters as a workbook',
        description:
          format === 'pdf'
            ? 'One A4 letter per student at the step (`step` counts from 1 along the ladder in force): students whose unexcused days reached it and not the next, in classroom and name order. In the request’s language, or `lang`. 404 for a step without students.'
            : 'The same students as the letters, one row each, with columns to mark signed or declined. 404 for a step without students.',
        auth: 'subscriber',
        query: [
          {
            name: 'classroom',
            description: 'Only this classroom: `grade / classroom` as the report writes it, or its number',
            schema: { type: 'string' },
          },
          {
            name: 'lang',
            description: 'The document’s language (`ar` or `en`); the request’s otherwise',
            schema: { type: 'string', enum: ['ar', 'en'] },
          },
        ],
        file: types[format],
        errors: [404, 429],
      },
      async (c, { session }) => {
        const { db, files } = c.get('ctx')
        const asked = c.req.query('lang')
        const step = /^\d{1,2}$/.test(c.req.param('step') ?? '') ? Number(c.req.param('step')) - 1 : -1
        await limitExports({ ...c.get('ctx'), userId: session.user.id })
        const options = {
          db,
          files,
          userId: session.user.id,
          analysisId: c.req.param('id') ?? '',
          stepIndex: step,
          classroom: c.req.query('classroom') ?? null,
          lang: isLang(asked) ? asked : apiLang(c),
        }
        return format === 'pdf' ? stepDocumentsPdf(options) : stepDocumentsXlsx(options)
      },
    )
  }
  return routes
}
