import { reactRouter } from '@react-router/dev/vite'
import { defineConfig, type Plugin } from 'vite'
import { inlineScripts } from './scripts/inline-scripts.ts'
import { buildSiteFonts } from './scripts/site-fonts.ts'

/**
 * The worker thread that reads and analyses uploads, and the process that renders PDFs, are
 * more entries of the server build, written beside build/server/index.js as analysis-worker.js
 * and pdf-process.js (their pools look for them there). Emitted by name: React Router names
 * every server entry index.js.
 */
function analysisWorker(): Plugin {
  return {
    name: 'hallil:analysis-worker',
    apply: 'build',
    buildStart() {
      if (this.environment.config.consumer !== 'server') return
      this.emitFile({ type: 'chunk', id: './app/features/analyses/worker.ts', fileName: 'analysis-worker.js' })
      // The PDF render process (app/platform/pdf-pool.server.ts looks for it beside the server).
      this.emitFile({ type: 'chunk', id: './app/platform/pdf-process.ts', fileName: 'pdf-process.js' })
    },
  }
}

/**
 * The site's web fonts, written to app/styles/fonts before a build or dev server starts
 * (scripts/site-fonts.ts); once per process, however many environments the build has.
 */
let siteFontsWritten: Promise<unknown> | undefined
function siteFonts(): Plugin {
  return {
    name: 'hallil:site-fonts',
    async buildStart() {
      await (siteFontsWritten ??= buildSiteFonts())
    },
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { tsconfigPaths: true },
  build: {
    target: 'es2022',
    assetsInlineLimit: 0,
    rollupOptions: isSsrBuild ? { input: './server/http/app.ts' } : undefined,
  },
  worker: { format: 'es' },
  server: { hmr: { port: 24678 } },
  plugins: [inlineScripts(), siteFonts(), reactRouter(), analysisWorker()],
}))
