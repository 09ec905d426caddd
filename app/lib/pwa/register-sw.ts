/**
 * Registers the service worker; when a new version takes over a page it already controlled, the
 * page reloads once so it runs the new build. Plain DOM: the React shell and the pages served
 * without React in the browser (app/document/enhance.client.ts) both call it. Returns the clean-up.
 */
export function registerServiceWorker(): () => void {
  if (!('serviceWorker' in navigator)) return () => {}
  const hadController = Boolean(navigator.serviceWorker.controller)
  let reloaded = false
  const onControllerChange = () => {
    // No controller any more: the worker was removed (Clear-Site-Data at logout), not replaced.
    if (!hadController || reloaded || !navigator.serviceWorker.controller) return
    reloaded = true
    window.location.reload()
  }
  navigator.serviceWorker.addEventListener('controllerchange', onControllerChange)
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {})
  return () => navigator.serviceWorker.removeEventListener('controllerchange', onControllerChange)
}
