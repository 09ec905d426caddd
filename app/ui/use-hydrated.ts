import { useSyncExternalStore } from 'react'

// A page paints before its script has loaded (decision 013), so for a moment a teacher sees and
// can press controls whose work is done by that script. Such a control renders as not ready
// (disabled, marked `data-needs-script` for its look in app.css) until this says the script runs:
// false on the server and while React hydrates the server's HTML, true from the render after.
// Decision 016.

const subscribe = () => () => {}

/** True once React runs this page in the browser; false in the server's HTML and while it hydrates. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
