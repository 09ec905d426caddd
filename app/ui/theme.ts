// The colour mode, in plain DOM: the React toggle and the pages served without React in the
// browser (app/document/enhance.client.ts) share it.

export const THEME_STORAGE_KEY = '7ll_theme'
export type ThemeMode = 'light' | 'dark' | 'system'
export const themeOrder: ThemeMode[] = ['system', 'light', 'dark']

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

/** The mode the page shows now (set by the boot script or a click). */
export function currentThemeMode(): ThemeMode {
  const set = document.documentElement.getAttribute('data-theme')
  return set === 'light' || set === 'dark' ? set : 'system'
}

export const nextThemeMode = (mode: ThemeMode): ThemeMode => themeOrder[(themeOrder.indexOf(mode) + 1) % themeOrder.length] ?? 'system'

/** The button's name and tooltip in each mode; carried by the button for pages without React in the browser. */
export type ThemeTexts = Record<ThemeMode, { label: string; title: string }>

/**
 * Shows `mode` on a toggle button: which icon (by `data-mode`, see app.css), its name and tooltip.
 */
export function showThemeMode(button: HTMLElement, texts: ThemeTexts, mode: ThemeMode) {
  button.dataset.mode = mode
  button.setAttribute('aria-label', texts[mode].label)
  button.title = texts[mode].title
}
