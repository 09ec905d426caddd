import { useEffect, useState } from 'react'
import { useT } from '#app/i18n/use-t.ts'
import { useHydrated } from './use-hydrated.ts'
import { MonitorIcon, MoonIcon, SunIcon } from './icons.tsx'
import { applyTheme, currentThemeMode, nextThemeMode, themeOrder, type ThemeMode, type ThemeTexts } from './theme.ts'

export function ThemeToggle() {
  const { t } = useT()
  const [mode, setMode] = useState<ThemeMode>('system')
  // Not ready until a script runs it: React's, or enhance.client.ts on the pages without React.
  const isHydrated = useHydrated()
  useEffect(() => setMode(currentThemeMode()), [])
  const texts = Object.fromEntries(
    themeOrder.map((m) => [
      m,
      {
        label: `${t('common.theme.label')}: ${t(`common.theme.${m}`)}`,
        title: t('common.theme.current', { mode: t(`common.theme.${m}`) }),
      },
    ]),
  ) as ThemeTexts
  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      data-needs-script
      disabled={!isHydrated}
      data-mode={mode}
      data-texts={JSON.stringify(texts)}
      onClick={() => {
        const next = nextThemeMode(mode)
        applyTheme(next)
        setMode(next)
      }}
      aria-label={texts[mode].label}
      title={texts[mode].title}
    >
      <MonitorIcon className="icon theme-icon-system" />
      <SunIcon className="icon theme-icon-light" />
      <MoonIcon className="icon theme-icon-dark" />
    </button>
  )
}
