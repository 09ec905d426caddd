import { useEffect, useState } from 'react'
import { useNavigation } from 'react-router'

export const PROGRESS_DELAY_MS = 200

/** A 3 px bar at the top while a navigation takes longer than 200 ms. */
export function ProgressBar() {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const [visible, setVisible] = useState(false)
  useEffect(() => {
    if (!busy) {
      setVisible(false)
      return
    }
    const timer = window.setTimeout(() => setVisible(true), PROGRESS_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [busy])
  return <div className={`progress-bar${visible ? ' is-active' : ''}`} aria-hidden="true" />
}
