import { useCallback } from 'react'
import { data, useLocation, useNavigate } from 'react-router'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { ExamEditor, examsStylesHref, type SaveExamResult } from '#app/features/exams/index.ts'
import { createExam, examToJson, findExam, parseExam, updateExam } from '#app/features/exams/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { isDomainError } from '#app/lib/errors.ts'
import { scriptsBeforePaint } from '#app/document/paint-first.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/exams-test'

// The teacher comes here to build, not to read: on a phone the builder answers her first tap
// sooner when its modules load at once than after the first paint, which comes a little later
// (decision 016 has the figures). Until then its buttons show they are not ready.
export const handle = scriptsBeforePaint

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: examsStylesHref }]

const imageUrl = (lang: string) => (imageId: string) => localPath(lang, `exams-images/${imageId}`)

/** `exams-test` starts a new test; `exams-test?id=…` opens one of the teacher's. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const id = new URL(request.url).searchParams.get('id')
  const exam = id ? await findExam({ db: context.db, userId: user.id, id }) : null
  if (id && !exam) throw data(null, { status: 404 })
  return { messages: getMessages(lang, ['exams']), exam: exam ? examToJson(exam, imageUrl(lang)) : null }
}

/** Saves the editor's JSON: a new test, or the one in `?id=`. Errors come back under their paths. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const id = new URL(request.url).searchParams.get('id')
  const body: unknown = await request.json().catch(() => null)
  try {
    const exam = parseExam(body)
    const saved = id
      ? await updateExam({ db: context.db, files: context.files, userId: user.id, id, exam })
      : await createExam({ db: context.db, userId: user.id, exam })
    if (!saved) throw data(null, { status: 404 })
    return { ok: true, exam: examToJson(saved, imageUrl(lang)) } satisfies SaveExamResult
  } catch (error) {
    if (!isDomainError(error)) throw error
    return data({ ok: false, errors: error.fields ?? { _form: [error.messageKey] } } satisfies SaveExamResult, { status: error.status })
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'exams.meta.editor', 'exams-test')

export default function ExamsTest({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const { exam } = loaderData
  const lang = useLang()
  const location = useLocation()
  const navigate = useNavigate()
  // A new test's first save gives it its address; the editor the teacher is working in stays
  // mounted through that move (remounting it would drop what she did while the address loaded).
  // Any other arrival, such as opening another test or starting a new one, starts a fresh editor.
  const carried = (location.state as { editorKey?: unknown } | null)?.editorKey
  const editorKey = typeof carried === 'string' ? carried : (exam?.id ?? `new-${location.key}`)
  const onCreated = useCallback(
    (id: string) => void navigate(`${localPath(lang, 'exams-test')}?id=${id}`, { replace: true, state: { editorKey } }),
    [editorKey, lang, navigate],
  )
  return (
    <>
      <PageHero title={exam ? t('exams.editor.editTitle') : t('exams.editor.newTitle')} lead={exam?.title ?? t('exams.editor.help')}>
        <p className="tool-hero-actions">
          <AppLink to="exams">{t('exams.editor.back')}</AppLink>
          <a href={`/product/sample-test-${lang}.pdf`}>{t('exams.editor.sample')}</a>
        </p>
      </PageHero>
      <section className="section">
        <div className="container narrow">
          <noscript>
            <p className="notice notice-error">{t('exams.editor.needsScript')}</p>
          </noscript>
          {/* A new identity for each test: its draft starts from what was loaded. */}
          <ExamEditor key={editorKey} exam={exam} onCreated={onCreated} />
        </div>
      </section>
    </>
  )
}
