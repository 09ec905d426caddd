import { data, Form, redirect, useNavigation } from 'react-router'
import { flashCookie } from '#app/features/accounts/index.server.ts'
import { packageFormSchema } from '#app/features/billing/schemas.ts'
import { findPackage } from '#app/features/billing/index.server.ts'
import {
  createPackageByOperator,
  editPackageByOperator,
  limitOperatorWrites,
  requireOperatorPage,
} from '#app/features/operators/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import type { Route } from './+types/admin-package-edit'

// A package's form, new (`admin/packages/new`) or existing (`admin/packages/:packageId`): the
// same schema as POST and PATCH /api/v1/admin/packages (docs/operators.md, "Money").

const fields = [
  'slug',
  'name_ar',
  'name_en',
  'description_ar',
  'description_en',
  'price',
  'months',
  'sort_order',
  'is_best_seller',
] as const

/** The package's id from the address, or null for the new one; anything else is not found. */
function packageIdOf(params: { packageId?: string }): number | null {
  if (params.packageId === undefined) return null
  const id = /^\d{1,9}$/.test(params.packageId) ? Number(params.packageId) : NaN
  if (!Number.isSafeInteger(id)) throw data(null, { status: 404 })
  return id
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireOperatorPage(request, context, lang)
  const id = packageIdOf(params)
  const pkg = id === null ? null : await findPackage({ db: context.db, packageId: id })
  if (id !== null && !pkg) throw data(null, { status: 404 })
  return {
    messages: getMessages(lang, ['operators', 'money', 'billing.admin', 'common']),
    values: (pkg
      ? {
          slug: pkg.slug,
          name_ar: pkg.nameAr,
          name_en: pkg.nameEn,
          description_ar: pkg.descriptionAr,
          description_en: pkg.descriptionEn,
          price: String(pkg.priceHalalas),
          months: String(pkg.months),
          sort_order: String(pkg.sortOrder),
          is_best_seller: pkg.isBestSeller ? 'on' : '',
        }
      : { sort_order: '0' }) as Record<string, string>,
    isNew: pkg === null,
  }
}

export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireOperatorPage(request, context, lang)
  const id = packageIdOf(params)
  const parsed = parseForm(packageFormSchema, await request.formData(), fields)
  if (!parsed.ok) return parsed.response
  return runForm(parsed.values, async () => {
    await limitOperatorWrites({ db: context.db, operatorId: user.id })
    const operator = { id: user.id, email: user.email }
    if (id === null) await createPackageByOperator({ db: context.db, operator, form: parsed.data })
    else await editPackageByOperator({ db: context.db, operator, packageId: id, form: parsed.data })
    throw redirect(localPath(lang, 'admin/packages'), { headers: { 'Set-Cookie': flashCookie('success', 'money.packages.saved') } })
  })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'money.meta.package', 'admin/packages')

export default function AdminPackageEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const navigation = useNavigation()
  const serverErrors = actionData && !actionData.ok ? actionData.errors : undefined
  const { errors, onSubmit } = useSchemaForm(packageFormSchema, fields, serverErrors)
  const values: Record<string, string> = actionData && !actionData.ok ? actionData.values : loaderData.values
  const text = (
    name: (typeof fields)[number],
    label: string,
    options: { dir?: 'ltr' | 'rtl'; hint?: string; inputMode?: 'numeric'; isOptional?: boolean } = {},
  ) => (
    <FormField id={`package-${name}`} label={label} hint={options.hint} errors={errors[name]} required={!options.isOptional}>
      {(props) => <input {...props} name={name} defaultValue={values[name] ?? ''} dir={options.dir} inputMode={options.inputMode} />}
    </FormField>
  )
  const area = (name: 'description_ar' | 'description_en', label: string, dir: 'ltr' | 'rtl') => (
    <FormField id={`package-${name}`} label={label} errors={errors[name]}>
      {(props) => <textarea {...props} name={name} rows={2} defaultValue={values[name] ?? ''} dir={dir} />}
    </FormField>
  )
  return (
    <>
      <h1>{t(loaderData.isNew ? 'money.packageForm.titleNew' : 'money.packageForm.titleEdit')}</h1>
      <div className="card admin-card">
        <FormErrorNotice errors={errors} />
        <Form method="post" noValidate className="form admin-form" onSubmit={onSubmit}>
          {text('slug', t('money.packageForm.slug'), { dir: 'ltr', hint: t('money.packageForm.slugHint') })}
          {text('name_ar', t('money.packageForm.nameAr'), { dir: 'rtl' })}
          {text('name_en', t('money.packageForm.nameEn'), { dir: 'ltr' })}
          {area('description_ar', t('money.packageForm.descriptionAr'), 'rtl')}
          {area('description_en', t('money.packageForm.descriptionEn'), 'ltr')}
          {text('price', t('money.packageForm.price'), { dir: 'ltr', hint: t('money.packageForm.priceHint'), inputMode: 'numeric' })}
          {text('months', t('money.packageForm.months'), { dir: 'ltr', inputMode: 'numeric' })}
          {text('sort_order', t('money.packageForm.sortOrder'), { dir: 'ltr', inputMode: 'numeric', isOptional: true })}
          <div className="field field-check">
            <label>
              <input type="checkbox" name="is_best_seller" value="on" defaultChecked={values.is_best_seller === 'on'} />{' '}
              <span>{t('money.packageForm.isBestSeller')}</span>
            </label>
          </div>
          <div className="dialog-actions">
            <button type="submit" className="button button-primary" disabled={navigation.state === 'submitting'}>
              {t(loaderData.isNew ? 'money.packageForm.create' : 'money.packageForm.save')}
            </button>
            <AppLink className="button button-ghost" to="admin/packages">
              {t('money.packageForm.cancel')}
            </AppLink>
          </div>
        </Form>
      </div>
    </>
  )
}
