// How toasts behave, shared by the React toaster (app/ui/toaster.tsx) and the pages served
// without React in the browser (app/document/enhance.client.ts).

/** A toast leaves by itself after this long, unless the pointer rests on it. */
export const TOAST_TIMEOUT_MS = 5000
/** At most this many at once: the oldest go first. */
export const TOAST_LIMIT = 20
/** Dragged sideways by this share of its width, a toast is dismissed. */
export const TOAST_DRAG_DISMISS_RATIO = 0.6
