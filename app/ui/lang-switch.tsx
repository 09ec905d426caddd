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
    // The name starts with the visible word, so a voice user who says "click English" reaches it
    // (WCAG 2.5.3); what it does follows in the page's language, for a screen reader.
    <a className="lang-switch" href={href} hrefLang={target} lang={target}>
      {t('common.language.switchTo')}
      <span className="visually-hidden" lang={lang}>
        {' '}
        {t('common.language.switchToLabel')}
      </span>
    </a>
  )
}
