// The script of the pages a guest gets without React in the browser (the content pages, the
// contact form, log in, registration, forgotten password: `staticForGuests`, app/document/static-pages.ts).
// Their links and forms work as plain HTML and their forms are checked on the server; this adds
// what HTML alone cannot do, with the same rules as the React shell: the colour-mode button,
// toasts that leave by themselves or when dismissed or dragged away, sections fading in on
// scroll, the focus on a form's first field in error, one submission per click, the chosen
// file's name beside a file chooser (app/ui/file-chooser.tsx), and the service worker. Plain DOM,
// no React: the whole file is a few kilobytes.
import { registerServiceWorker } from '#app/lib/pwa/register-sw.ts'
import { ENHANCED } from './markers.ts'
import { revealOnScroll } from '#app/ui/reveal.ts'
import { applyTheme, currentThemeMode, nextThemeMode, showThemeMode, type ThemeTexts } from '#app/ui/theme.ts'
import { TOAST_DRAG_DISMISS_RATIO, TOAST_TIMEOUT_MS } from '#app/ui/toast-rules.ts'

function themeButtons() {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button.theme-toggle')) {
    let texts: ThemeTexts
    try {
      texts = JSON.parse(button.dataset.texts ?? '') as ThemeTexts
    } catch {
      continue
    }
    let mode = currentThemeMode()
    showThemeMode(button, texts, mode)
    button.addEventListener('click', () => {
      mode = nextThemeMode(mode)
      applyTheme(mode)
      showThemeMode(button, texts, mode)
    })
    // Rendered not ready (decision 016): it works from now on.
    button.disabled = false
  }
}

function toast(item: HTMLElement) {
  let timer = 0
  let drag: { startX: number; width: number; offset: number } | null = null
  const dismiss = () => {
    window.clearTimeout(timer)
    item.remove()
  }
  const wait = () => {
    window.clearTimeout(timer)
    timer = window.setTimeout(dismiss, TOAST_TIMEOUT_MS)
  }
  const move = (offset: number) => {
    item.style.transform = offset ? `translateX(${offset}px)` : ''
    item.style.opacity = offset ? String(Math.max(0.2, 1 - Math.abs(offset) / 400)) : ''
  }
  const close = item.querySelector<HTMLButtonElement>('button.toast-close')
  close?.addEventListener('click', dismiss)
  if (close) close.disabled = false
  item.addEventListener('mouseenter', () => window.clearTimeout(timer))
  item.addEventListener('mouseleave', () => {
    if (!drag) wait()
  })
  item.addEventListener('pointerdown', (event) => {
    if ((event.target as HTMLElement).closest('button')) return
    drag = { startX: event.clientX, width: item.offsetWidth, offset: 0 }
    item.setPointerCapture(event.pointerId)
    window.clearTimeout(timer)
  })
  item.addEventListener('pointermove', (event) => {
    if (!drag) return
    drag.offset = event.clientX - drag.startX
    move(drag.offset)
  })
  const release = () => {
    const ended = drag
    drag = null
    if (ended && Math.abs(ended.offset) >= ended.width * TOAST_DRAG_DISMISS_RATIO) return dismiss()
    move(0)
    wait()
  }
  item.addEventListener('pointerup', release)
  item.addEventListener('pointercancel', release)
  wait()
}

function forms() {
  // After the server answered with errors, the first field in error takes the focus, as it does
  // on a React page.
  document.querySelector<HTMLElement>('main form [aria-invalid="true"]')?.focus()
  // A form is sent once: a second click while the page loads the answer does nothing.
  for (const form of document.querySelectorAll<HTMLFormElement>('form[method="post" i]')) {
    form.addEventListener('submit', (event) => {
      if (form.dataset.submitting) event.preventDefault()
      else form.dataset.submitting = 'true'
    })
  }
  // Back to this page from the browser's history: its forms may be sent again.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted)
      for (const form of document.querySelectorAll<HTMLFormElement>('form[data-submitting]')) delete form.dataset.submitting
  })
}

/** Beside a file chooser, the name of the file chosen (the React component does the same with its state). */
function fileChoosers() {
  for (const input of document.querySelectorAll<HTMLInputElement>('[data-file-chooser] input[type="file"]')) {
    input.addEventListener('change', () => {
      const shown = input.parentElement?.querySelector('.file-chooser-name')
      const file = input.files?.[0]
      if (!shown || !file) return
      const name = document.createElement('bdi')
      name.dir = 'auto'
      name.textContent = file.name
      shown.replaceChildren(name)
      input.parentElement?.classList.add('has-file')
    })
  }
}

themeButtons()
forms()
fileChoosers()
for (const item of document.querySelectorAll<HTMLElement>('.toasts .toast')) toast(item)
revealOnScroll()
registerServiceWorker()
document.documentElement.dataset[ENHANCED] = 'true'
