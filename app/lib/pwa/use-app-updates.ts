import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'

export const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000

/**
 * Registers the service worker (a new version that takes over reloads the page), checks the
 * build id every hour, and when it changed reloads on the next navigation.
 */
export function useAppUpdates(currentVersion: string, enabled: boolean) {
  const stale = useRef(false)
  const location = useLocation()
  const lastLocationKey = useRef<string | null>(null)

  useEffect(() => {
    if (!enabled || !('serviceWorker' in navigator)) return
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
  }, [enabled])

  useEffect(() => {
    if (!enabled) return
    const check = async () => {
      try {
        const response = await fetch('/version.json', { cache: 'no-store' })
        if (!response.ok) return
        const { version } = (await response.json()) as { version?: string }
        if (version && version !== currentVersion) stale.current = true
      } catch {
        // Offline: try again at the next interval.
      }
    }
    const timer = window.setInterval(check, UPDATE_CHECK_INTERVAL_MS)
    return () => window.clearInterval(timer)
  }, [currentVersion, enabled])

  const locationKey = location.key
  useEffect(() => {
    const previous = lastLocationKey.current
    lastLocationKey.current = locationKey
    if (previous !== null && previous !== locationKey && stale.current) window.location.reload()
  }, [locationKey])
}
