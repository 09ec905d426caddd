// `import source from './x.client.ts?inline-script'`: the module bundled for the browser as one
// classic script (vite.config.ts, inlineScripts), its text ready to write into an inline <script>.
declare module '*?inline-script' {
  const source: string
  export default source
}
