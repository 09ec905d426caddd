import { defaultLang, isLang, type Lang } from './config.ts'

/**
 * The page's language from the route params. An invalid segment is redirected by the
 * `:lang` layout, whose loader runs beside the page's; meanwhile the page renders in the default.
 */
export function langParam(params: { lang?: string }): Lang {
  return isLang(params.lang) ? params.lang : defaultLang
}
