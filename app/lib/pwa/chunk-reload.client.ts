import { isChunkLoadError, shouldReloadForChunkError } from './chunk-reload.ts'

function reloadOnce(): boolean {
  try {
    if (!shouldReloadForChunkError(window.sessionStorage, window.location.pathname, Date.now())) return false
  } catch {
    return false
  }
  window.location.reload()
  return true
}

export function installChunkReloadGuard(): void {
  // Vite reports a failed preload of a code-split chunk with this event.
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadOnce()) event.preventDefault()
  })
  window.addEventListener('unhandledrejection', (event) => {
    if (isChunkLoadError(event.reason)) reloadOnce()
  })
}
