import { useLocation } from 'react-router'
import { otherLang, switchLangPath } from '#app/i18n/config.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'

/** Goes to the same page in the other language and remembers the choice (a plain link: works without JavaScript). */
export function LangSwitch() {
  const { t } = useT()
  const lang = useLang()
  const location = useLocation()
  const target = otherLang(lang)
  const to = switchLangPath(location.pathname, target) + location.search
  const href = `/set-language?lang=${target}&to=${encodeURIComponent(to)}`
  return (
    <a className="lang-switch" href={href} hrefLang={target} lang={target} aria-label={t('common.language.switchToLabel')}>
      {t('common.language.switchTo')}
    </a>
  )
}
