import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { registerServiceWorker } from './register-sw.ts'

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
    if (enabled) return registerServiceWorker()
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
