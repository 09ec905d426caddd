import { formatNumber } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { EXAM_LIMITS, examSize } from './schemas.ts'

type Props = { exam: Parameters<typeof examSize>[0]; errors?: string[] }

// From here on the meter says the test is close to its limit: a teacher then has room to
// finish the question being written, not a surprise refusal on saving.
const NEAR = 0.8

/** How much of the whole-test limits (characters, matching pairs) the test uses, as it is being written. */
export function ExamSizeMeter({ exam, errors }: Props) {
  const { t } = useT()
  const lang = useLang()
  const size = examSize(exam)
  const rows = [
    { key: 'characters', count: size.characters, max: EXAM_LIMITS.totalCharacters },
    { key: 'pairs', count: size.pairs, max: EXAM_LIMITS.totalPairs },
  ] as const
  return (
    <div className="exam-size" role="group" aria-label={t('exams.editor.size.label')}>
      {rows.map(({ key, count, max }) => {
        const state = count > max ? 'over' : count >= max * NEAR ? 'near' : null
        const text = t(`exams.editor.size.${key}`, { count: formatNumber(lang, count), max: formatNumber(lang, max) })
        return (
          <p key={key} className="exam-size-row" data-state={state ?? 'ok'} data-testid={`exam-size-${key}`}>
            <meter min={0} max={max} low={max * NEAR} high={max} optimum={0} value={Math.min(count, max)} aria-label={text} />
            <span>
              {text}
              {state ? ` · ${t(`exams.editor.size.${state}`)}` : ''}
            </span>
          </p>
        )
      })}
      {errors?.length ? (
        <p className="field-error" data-path="_form" tabIndex={-1}>
          {errors.map((key) => t(key)).join(' · ')}
        </p>
      ) : null}
    </div>
  )
}
