import type { ReactNode } from 'react'
import { useT } from '#app/i18n/use-t.ts'
import type { UploadFailure } from '#app/lib/upload-failure.ts'
import { PageHero } from './page-hero.tsx'
import { UploadForm } from './upload-form.tsx'

/** The page of an analysis tool (absence, grades): what it does, the sample file, the upload. */
export function AnalysisToolPage(props: {
  title: string
  lead: string
  sampleHref: string
  jsonAction: string
  columnsNamespace: string
  maxMb: number
  failure: UploadFailure | null
  /** Noor's reports this tool reads as they are, by name. */
  noorReports: readonly string[]
  /** Fields sent with the file. */
  fields?: ReactNode
  /** Below the reports the tool reads: the tool's settings, when it has some. */
  aside?: ReactNode
}) {
  const { t } = useT()
  return (
    <>
      <PageHero title={props.title} lead={props.lead} />
      <section className="section">
        <div className="container narrow tool-layout">
          <div className="card">
            <h2>{t('analyses.upload.steps.title')}</h2>
            <ol className="steps-list">
              <li>{t('analyses.upload.steps.one')}</li>
              <li>{t('analyses.upload.steps.two')}</li>
              <li>{t('analyses.upload.steps.three')}</li>
            </ol>
            <p>{t('analyses.upload.sampleLead')}</p>
            <a className="button button-ghost" href={props.sampleHref} download>
              {t('analyses.upload.sample')}
            </a>
            <h3>{t('analyses.upload.noorTitle')}</h3>
            <ul className="noor-reports">
              {props.noorReports.map((report) => (
                <li key={report}>{report}</li>
              ))}
            </ul>
            {props.aside}
          </div>
          <div className="card">
            <h2>{t('analyses.upload.title')}</h2>
            <UploadForm maxMb={props.maxMb} failure={props.failure} jsonAction={props.jsonAction} columnsNamespace={props.columnsNamespace}>
              {props.fields}
            </UploadForm>
          </div>
        </div>
      </section>
    </>
  )
}
