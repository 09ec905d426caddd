import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type PointerEvent, type ReactNode } from 'react'
import { useT } from '#app/i18n/use-t.ts'
import { useHydrated } from './use-hydrated.ts'
import { TOAST_DRAG_DISMISS_RATIO, TOAST_LIMIT, TOAST_TIMEOUT_MS } from './toast-rules.ts'

export type ToastKind = 'success' | 'error' | 'info'
export type ToastItem = { id: string; kind: ToastKind; message: string }

export { TOAST_DRAG_DISMISS_RATIO, TOAST_LIMIT, TOAST_TIMEOUT_MS }

type ToastApi = { push: (kind: ToastKind, message: string, id?: string) => void; dismiss: (id: string) => void }
const ToastContext = createContext<ToastApi>({ push: () => {}, dismiss: () => {} })
export const useToast = () => useContext(ToastContext)

let counter = 0
const nextId = () => `t${Date.now().toString(36)}${(counter++).toString(36)}`

/** Adds a toast, keeping at most TOAST_LIMIT (the oldest go first). */
export function addToast(list: ToastItem[], toast: ToastItem): ToastItem[] {
  const next = [...list, toast]
  return next.length > TOAST_LIMIT ? next.slice(next.length - TOAST_LIMIT) : next
}

/**
 * Toasts at the top of the inline end (top-right in English, mirrored to top-left in Arabic).
 * `initial` comes from the server, so a message shows even before JavaScript runs.
 */
export function ToastProvider({ initial, children }: { initial: ToastItem[]; children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>(initial)
  const dismiss = useCallback((id: string) => setToasts((list) => list.filter((t) => t.id !== id)), [])
  // A toast with a known id (a flash already rendered by the server) is not shown twice.
  const seen = useRef(new Set(initial.map((t) => t.id)))
  const push = useCallback((kind: ToastKind, message: string, id?: string) => {
    if (id && seen.current.has(id)) return
    if (id) seen.current.add(id)
    setToasts((list) => addToast(list, { id: id ?? nextId(), kind, message }))
  }, [])
  const api = useMemo(() => ({ push, dismiss }), [push, dismiss])
  return (
    <ToastContext.Provider value={api}>
      {children}
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
    </ToastContext.Provider>
  )
}

function ToastRegion({ toasts, onDismiss }: { toasts: ToastItem[]; onDismiss: (id: string) => void }) {
  const { t } = useT()
  return (
    <section className="toasts" aria-label={t('common.toast.region')}>
      <ol>
        {toasts.map((toast) => (
          <Toast key={toast.id} toast={toast} onDismiss={onDismiss} dismissLabel={t('common.toast.dismiss')} />
        ))}
      </ol>
    </section>
  )
}

function Toast({ toast, onDismiss, dismissLabel }: { toast: ToastItem; onDismiss: (id: string) => void; dismissLabel: string }) {
  const [offset, setOffset] = useState(0)
  const [paused, setPaused] = useState(false)
  const drag = useRef<{ startX: number; width: number } | null>(null)
  // A toast shown with the page closes by script: not ready until it runs (decision 016).
  const isHydrated = useHydrated()

  useEffect(() => {
    if (paused) return
    const timer = window.setTimeout(() => onDismiss(toast.id), TOAST_TIMEOUT_MS)
    return () => window.clearTimeout(timer)
  }, [paused, toast.id, onDismiss])

  const onPointerDown = (event: PointerEvent<HTMLLIElement>) => {
    if ((event.target as HTMLElement).closest('button')) return
    drag.current = { startX: event.clientX, width: event.currentTarget.offsetWidth }
    event.currentTarget.setPointerCapture(event.pointerId)
    setPaused(true)
  }
  const onPointerMove = (event: PointerEvent<HTMLLIElement>) => {
    if (drag.current) setOffset(event.clientX - drag.current.startX)
  }
  const onPointerUp = () => {
    const current = drag.current
    drag.current = null
    if (current && Math.abs(offset) >= current.width * TOAST_DRAG_DISMISS_RATIO) onDismiss(toast.id)
    else {
      setOffset(0)
      setPaused(false)
    }
  }

  return (
    // The toast is dismissed with its close button; dragging it away is a pointer shortcut.
    // oxlint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <li
      className={`toast toast-${toast.kind}`}
      style={offset ? { transform: `translateX(${offset}px)`, opacity: Math.max(0.2, 1 - Math.abs(offset) / 400) } : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => !drag.current && setPaused(false)}
    >
      {/* The live role sits on the message, not the item: a list keeps list items (axe's `list`
          rule), and the close button is not read out with the message. */}
      <p role={toast.kind === 'error' ? 'alert' : 'status'}>{toast.message}</p>
      <button
        type="button"
        className="toast-close"
        data-needs-script
        disabled={!isHydrated}
        aria-label={dismissLabel}
        onClick={() => onDismiss(toast.id)}
      >
        ×
      </button>
    </li>
  )
}
