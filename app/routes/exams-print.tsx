import { useEffect, useRef, type CSSProperties } from 'react'
import { data, Form } from 'react-router'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { examPrintStylesHref, examsStylesHref } from '#app/features/exams/index.ts'
import { examPrintOptions, findExam, renderExamPrint } from '#app/features/exams/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { isDomainError } from '#app/lib/errors.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { limitPageExports } from '#app/platform/export-limit.server.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import { useHydrated } from '#app/ui/use-hydrated.ts'
import type { Route } from './+types/exams-print'

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: examsStylesHref },
  { rel: 'stylesheet', href: examPrintStylesHref },
]

type Show = 'test' | 'key' | 'versions'

/** What to print, from the page's own form: the test, its key, or 2–4 versions with their keys. */
function printChoice(url: URL) {
  const show: Show = (['test', 'key', 'versions'] as const).find((s) => s === url.searchParams.get('show')) ?? 'test'
  const count = Math.min(4, Math.max(2, Number(url.searchParams.get('count')) || 2))
  const query = show === 'key' ? '?answers=1' : show === 'versions' ? `?versions=${count}` : ''
  return { show, count, query, kind: { answers: show === 'key', versions: show === 'versions' ? count : null } }
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const exam = await findExam({ db: context.db, userId: user.id, id: params.examId })
  if (!exam) throw data(null, { status: 404 })
  const choice = printChoice(new URL(request.url))
  // Counted like the PDF: this page costs the render that the preview and the PDF then share.
  await limitPageExports(context, user.id, request, lang)
  // The sheets are windows onto one SVG image; the page needs only how many there are.
  let pages = 0
  let failure: string | null = null
  let status = 200
  try {
    // The images come from the file store: one that does not answer is this page's 503, like a busy renderer.
    const options = await examPrintOptions({ exam, db: context.db, files: context.files, userId: user.id, lang, ...choice.kind })
    pages = (await renderExamPrint(exam, options, 'pages')).pages
  } catch (error) {
    if (!isDomainError(error)) throw error
    failure = error.messageKey
    status = error.status
  }
  const base = localPath(lang, `exams/${exam.id}`)
  return data(
    {
      failure,
      messages: getMessages(lang, ['exams']),
      exam: { id: exam.id, title: exam.title },
      show: choice.show,
      count: choice.count,
      pages,
      previewUrl: `${base}/preview.svg${choice.query}`,
      pdfUrl: `${base}/pdf${choice.query}`,
    },
    { status, headers: status === 503 ? { 'Retry-After': '30' } : undefined },
  )
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'exams.meta.print', `exams/${args.params.examId}/print`)

export default function ExamsPrint({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { exam, show, count, pages, previewUrl, pdfUrl, failure } = loaderData
  const isHydrated = useHydrated()
  const choices = useRef<HTMLFormElement>(null)
  // A choice made before the page's script ran (the page paints first, decision 013) changed the
  // form but showed nothing: it is shown now (decision 016).
  useEffect(() => {
    const form = choices.current
    if (!form) return
    const changed =
      [...form.querySelectorAll<HTMLInputElement>('input[type="radio"]')].some((r) => r.checked !== r.defaultChecked) ||
      [...form.querySelectorAll('option')].some((o) => o.selected !== o.defaultSelected)
    if (changed) form.requestSubmit()
  }, [])
  return (
    <>
      <PageHero title={t('exams.print.title')} lead={exam.title} />
      <section className="section exam-print">
        <div className="container">
          <div className="exam-print-controls card">
            <Form ref={choices} method="get" onChange={(event) => event.currentTarget.requestSubmit()}>
              <fieldset>
                <legend>{t('exams.print.kind')}</legend>
                {(['test', 'key', 'versions'] as const).map((value) => (
                  <label key={value} className="choice">
                    <input type="radio" name="show" value={value} defaultChecked={show === value} />
                    {t(value === 'test' ? 'exams.print.test' : value === 'key' ? 'exams.print.answerKey' : 'exams.print.versions')}
                  </label>
                ))}
              </fieldset>
              <div className="field">
                <label htmlFor="print-count">{t('exams.print.versionCount')}</label>
                <select id="print-count" name="count" defaultValue={String(count)}>
                  {[2, 3, 4].map((n) => (
                    <option key={n} value={n}>
                      {t('exams.print.versionOption', { count: n })}
                    </option>
                  ))}
                </select>
              </div>
              <noscript>
                <button type="submit" className="button button-ghost">
                  {t('exams.print.show')}
                </button>
              </noscript>
            </Form>
            <div className="exam-print-actions">
              <button
                type="button"
                className="button button-primary"
                data-needs-script
                disabled={!isHydrated}
                onClick={() => window.print()}
              >
                {t('exams.print.print')}
              </button>
              {failure ? null : (
                <a className="button button-ghost" href={pdfUrl} download>
                  {t('exams.print.download')}
                </a>
              )}
              <AppLink className="button button-ghost" to={`exams-test?id=${exam.id}`}>
                {t('exams.print.edit')}
              </AppLink>
            </div>
            {failure ? (
              <p className="notice notice-error" role="alert">
                {t(failure)}
              </p>
            ) : (
              <p className="muted">
                {t('exams.print.pages', { count: pages })} · {t('exams.print.hint')}
              </p>
            )}
          </div>
          <div className="exam-sheets" lang={lang}>
            {Array.from({ length: pages }, (_, i) => (
              <div
                key={`${previewUrl}-${i}`}
                className="exam-sheet"
                role="img"
                aria-label={`${exam.title}, ${t('exams.print.pageLabel', { page: i + 1, total: pages })}`}
                style={{ '--sheet': i } as CSSProperties}
              >
                <img src={previewUrl} alt="" decoding="async" />
              </div>
            ))}
          </div>
        </div>
      </section>
    </>
  )
}
