import { useEffect, useState } from 'react'
import { useT } from '#app/i18n/use-t.ts'
import { MonitorIcon, MoonIcon, SunIcon } from './icons.tsx'

export const THEME_STORAGE_KEY = '7ll_theme'
export type ThemeMode = 'light' | 'dark' | 'system'
const order: ThemeMode[] = ['system', 'light', 'dark']

/** Runs in <head> before first paint, so a dark page never flashes light. */
export const themeBootScript = `(function(){var d=document.documentElement;d.classList.add('js');try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');if(t==='light'||t==='dark')d.setAttribute('data-theme',t)}catch(e){}})();`

export function applyTheme(mode: ThemeMode) {
  const root = document.documentElement
  if (mode === 'system') root.removeAttribute('data-theme')
  else root.setAttribute('data-theme', mode)
  try {
    if (mode === 'system') localStorage.removeItem(THEME_STORAGE_KEY)
    else localStorage.setItem(THEME_STORAGE_KEY, mode)
  } catch {
    // Storage can be unavailable (private mode); the choice then lasts for this page only.
  }
}

export function ThemeToggle() {
  const { t } = useT()
  const [mode, setMode] = useState<ThemeMode>('system')
  useEffect(() => {
    const stored = document.documentElement.getAttribute('data-theme')
    setMode(stored === 'light' || stored === 'dark' ? stored : 'system')
  }, [])
  const next = order[(order.indexOf(mode) + 1) % order.length] ?? 'system'
  const Icon = mode === 'light' ? SunIcon : mode === 'dark' ? MoonIcon : MonitorIcon
  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      onClick={() => {
        applyTheme(next)
        setMode(next)
      }}
      aria-label={`${t('common.theme.label')}: ${t(`common.theme.${mode}`)}`}
      title={t('common.theme.current', { mode: t(`common.theme.${mode}`) })}
    >
      <Icon className="icon" />
    </button>
  )
}
