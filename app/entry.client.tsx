import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import { installChunkReloadGuard } from '#app/lib/pwa/chunk-reload.client.ts'
import { noteTypedText } from '#app/ui/typed-before-hydration.ts'

installChunkReloadGuard()
// Hydrating puts a textarea back to the server's text: what was typed before is noted first.
noteTypedText()

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  )
})
