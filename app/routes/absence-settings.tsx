import { data, Form, redirect, useNavigation } from 'react-router'
import { saveTierThresholds, tierThresholdsOf } from '#app/features/absence/index.server.ts'
import { defaultTierThresholds, tierThresholdFields, tierThresholdsSchema, tierThresholdsWire } from '#app/features/absence/index.ts'
import { flashCookie } from '#app/features/accounts/index.server.ts'
import { ladderFormFields, ladderFormSchema, ladderPresetNames, ladderPresets, LadderSettings } from '#app/features/follow-up/index.ts'
import { ladderOf, saveLadder } from '#app/features/follow-up/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { formatNumber } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import type { Route } from './+types/absence-settings'

// The teacher's settings of the absence analysis (issue 18): the tier thresholds and the ladder of
// follow-up steps, which every report, export and API answer uses from the moment they are saved.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  return {
    messages: getMessages(lang, ['absence-settings', 'absence.tiers', 'followUp', 'parent-messages.edit']),
    thresholds: tierThresholdsWire(await tierThresholdsOf({ db: context.db, userId: user.id })),
    ladder: await ladderOf({ db: context.db, userId: user.id }),
  }
}

const savedLadder = (lang: 'ar' | 'en') =>
  redirect(localPath(lang, 'absence-settings'), { headers: { 'Set-Cookie': flashCookie('success', 'followUp.ladder.saved') } })

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const form = await request.formData()
  const intent = form.get('intent')
  if (intent === 'ladder-preset') {
    const preset = ladderPresetNames.find((name) => name === form.get('preset')) ?? 'standard'
    await saveLadder({ db: context.db, userId: user.id, steps: ladderPresets[preset] })
    throw savedLadder(lang)
  }
  if (intent === 'ladder-steps') {
    // The ladder's form answers a failure of its own (`form: 'ladder'`), so the tiers' form keeps its fields.
    const parsed = parseForm(ladderFormSchema, form, ladderFormFields)
    if (!parsed.ok) return data({ ...parsed.response.data, form: 'ladder' as const }, parsed.response.init ?? { status: 422 })
    await saveLadder({ db: context.db, userId: user.id, steps: parsed.data })
    throw savedLadder(lang)
  }
  // "Restore the defaults" sends the defaults through the same schema as typed thresholds.
  const input = form.get('intent') === 'defaults' ? toForm(tierThresholdsWire(defaultTierThresholds)) : form
  const parsed = parseForm(tierThresholdsSchema, input, tierThresholdFields)
  if (!parsed.ok) return parsed.response
  return runForm(parsed.values, async () => {
    await saveTierThresholds({ db: context.db, userId: user.id, thresholds: parsed.data })
    throw redirect(localPath(lang, 'absence-settings'), { headers: { 'Set-Cookie': flashCookie('success', 'absence.tiers.saved') } })
  })
}

function toForm(values: Record<string, number>): FormData {
  const form = new FormData()
  for (const [key, value] of Object.entries(values)) form.set(key, String(value))
  return form
}

export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'absence-settings', 'absence-settings')

export default function AbsenceSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const navigation = useNavigation()
  const isLadder = actionData && 'form' in actionData
  const serverErrors = actionData && !actionData.ok && !isLadder ? actionData.errors : undefined
  const { errors, onSubmit } = useSchemaForm(tierThresholdsSchema, tierThresholdFields, serverErrors)
  const typed = actionData && !actionData.ok && !isLadder ? actionData.values : {}
  const saved = loaderData.thresholds
  const value = (field: (typeof tierThresholdFields)[number]) => typed[field] ?? String(saved[field])
  const defaults = tierThresholdsWire(defaultTierThresholds)
  const percentOf = (v: number) => formatNumber(lang, v / 100, { style: 'percent', maximumFractionDigits: 2 })
  const isBusy = navigation.state === 'submitting'
  const labels = { at_risk: 'atRisk', chronic: 'chronic', severe: 'severe' } as const
  return (
    <>
      <PageHero title={t('absence-settings.title')} lead={t('absence-settings.lead')} />
      <section className="section">
        <div className="container narrow">
          <article className="card" aria-labelledby="tiers-form-title">
            <h2 id="tiers-form-title">{t('absence.tiers.title')}</h2>
            <p className="muted">{t('absence-settings.tiersLead')}</p>
            <p className="muted">
              {t('absence-settings.source', {
                atRisk: percentOf(defaults.at_risk),
                chronic: percentOf(defaults.chronic),
                severe: percentOf(defaults.severe),
              })}
            </p>
            <FormErrorNotice errors={errors} />
            <Form method="post" noValidate className="form" onSubmit={onSubmit}>
              {tierThresholdFields.map((field) => (
                <FormField
                  key={field}
                  id={`tier-${field}`}
                  label={t('absence-settings.fieldLabel', { tier: t(`absence.tiers.names.${labels[field]}`) })}
                  hint={t(`absence-settings.hints.${labels[field]}`)}
                  errors={errors[field]}
                  required
                >
                  {(p) => (
                    <input
                      {...p}
                      name={field}
                      type="text"
                      inputMode="decimal"
                      autoComplete="off"
                      defaultValue={value(field)}
                      required
                      maxLength={6}
                    />
                  )}
                </FormField>
              ))}
              <button type="submit" className="button button-primary" disabled={isBusy}>
                {t('absence-settings.submit')}
              </button>
            </Form>
            <Form method="post" className="form tiers-restore">
              <input type="hidden" name="intent" value="defaults" />
              <button type="submit" className="button button-ghost" disabled={isBusy}>
                {t('absence-settings.restore')}
              </button>
            </Form>
          </article>
          <LadderSettings
            steps={loaderData.ladder}
            errors={isLadder ? actionData.errors : undefined}
            typed={isLadder ? actionData.values : undefined}
            isBusy={isBusy}
          />
          <p>
            <AppLink to="message-templates">{t('parent-messages.edit')}</AppLink>
          </p>
          <p>
            <AppLink to="last-multiple">{t('absence-settings.toAnalyses')}</AppLink>
          </p>
        </div>
      </section>
    </>
  )
}
