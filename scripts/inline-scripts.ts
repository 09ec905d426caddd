// `import source from './x.client.ts?inline-script'`: the browser module x.client.ts, bundled
// with what it imports into one classic script (an IIFE, minified) and given to the importer as
// its text, for a page's inline <script> (app/document/paint-first.server.ts). The browser code
// stays a real module (typed, linted, importing its constants) instead of a function's source.
import { build } from 'esbuild'
import type { Plugin } from 'vite'

const SUFFIX = '?inline-script'
const PREFIX = '\0inline-script:'

export function inlineScripts(): Plugin {
  return {
    name: 'hallil:inline-scripts',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!source.endsWith(SUFFIX)) return null
      const resolved = await this.resolve(source.slice(0, -SUFFIX.length), importer, { skipSelf: true })
      // The id ends with the query, not `.client.ts`: React Router empties `.client` modules on the server.
      return resolved ? `${PREFIX}${resolved.id}${SUFFIX}` : null
    },
    async load(id) {
      if (!id.startsWith(PREFIX) || !id.endsWith(SUFFIX)) return null
      const file = id.slice(PREFIX.length, -SUFFIX.length)
      const result = await build({
        entryPoints: [file],
        bundle: true,
        write: false,
        format: 'iife',
        minify: true,
        target: 'es2020',
        platform: 'browser',
        metafile: true,
        logLevel: 'silent',
      })
      for (const input of Object.keys(result.metafile.inputs)) this.addWatchFile(input)
      const text = (result.outputFiles[0]?.text ?? '').trim()
      if (!text || /<\/script|<!--/i.test(text)) throw new Error(`${file} cannot be written into an inline script`)
      return `export default ${JSON.stringify(text)}`
    },
  }
}
