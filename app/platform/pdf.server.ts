import { NodeCompiler } from '@myriaddreamin/typst-ts-node-compiler'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

// Every PDF of the product (tax invoices, analysis reports, printed tests) is typeset here by typst
// with the fonts the project ships; see docs/decisions/004-pdf-renderer.md.

/**
 * Arabic is set in Amiri (its text layer extracts in logical order), everything in the Latin range
 * in IBM Plex Sans Arabic (the face of the web pages). Both OFL-1.1, read from node_modules.
 */
export const pdfFontFamilies = { arabic: 'Amiri', latin: 'IBM Plex Sans Arabic' } as const

// Each file with the PostScript name it carries into the PDF.
const fontFiles = {
  '@expo-google-fonts/amiri/400Regular/Amiri_400Regular.ttf': 'Amiri-Regular',
  '@expo-google-fonts/amiri/700Bold/Amiri_700Bold.ttf': 'Amiri-Bold',
  '@expo-google-fonts/ibm-plex-sans-arabic/400Regular/IBMPlexSansArabic_400Regular.ttf': 'IBMPlexSansArabic-Regular',
  '@expo-google-fonts/ibm-plex-sans-arabic/600SemiBold/IBMPlexSansArabic_600SemiBold.ttf': 'IBMPlexSansArabic-SemiBold',
  '@expo-google-fonts/ibm-plex-sans-arabic/700Bold/IBMPlexSansArabic_700Bold.ttf': 'IBMPlexSansArabic-Bold',
}
const shippedFonts = new Set(Object.values(fontFiles))

// The compiler also sees the machine's fonts and its own built-in ones (the package has no switch
// to turn them off), so every document starts with these rules: only the shipped families, and no
// fallback that could pick another font for a glyph they lack; and every PDF is checked for the
// fonts it embeds. Latin letters, digits and punctuation go to Plex, everything else (Arabic) to
// Amiri. Amiri's kerning tucks ي under a preceding ر, which text extraction (pdftotext, screen
// readers, search) reads as a space inside the word (`طر يق`): Arabic runs are set without
// kerning, Latin keeps it.
const preamble =
  `#set text(font: ((name: "${pdfFontFamilies.latin}", covers: regex("[\\u{0}-\\u{24F}\\u{2010}-\\u{2044}\\u{20AC}]")), ` +
  `"${pdfFontFamilies.arabic}"), fallback: false)\n` +
  `#show regex("[\\u{600}-\\u{6FF}\\u{750}-\\u{77F}\\u{FB50}-\\u{FDFF}\\u{FE70}-\\u{FEFF}]+"): set text(kerning: false)\n`

// A root that cannot exist on any machine (/dev/null is a file), so a document can read nothing
// from the disk: images and data come in memory only.
const root = '/dev/null/hallil-pdf'

export type RenderPdfOptions = {
  /** Values the document reads as `sys.inputs.<key>`: always strings, never parsed as markup. */
  inputs?: Record<string, string>
  /** In-memory files by path (`qr.svg`, `charts/absence.svg`), read as `image("/qr.svg")`. */
  images?: Record<string, Uint8Array>
}

export type PdfRenderer = {
  /** Typesets a typst document to PDF bytes. Synchronous: a few milliseconds per page. */
  renderPdf(source: string, options?: RenderPdfOptions): Uint8Array
  /**
   * The same document as one SVG, its pages stacked top to bottom without gaps, glyphs drawn as
   * outlines and images inlined: a page can show (and the browser print) exactly what the PDF holds.
   */
  renderSvg(source: string, options?: RenderPdfOptions): string
  /**
   * One compile, then the outputs asked for and the page count: a print page, its preview and
   * its PDF share one layout instead of three.
   */
  renderDocument(source: string, options: RenderPdfOptions, outputs: DocumentOutputs): RenderedDocument
}

export type DocumentOutputs = { pdf?: boolean; svg?: boolean }
export type RenderedDocument = { pdf?: Uint8Array; svg?: string; pages: number }

export type PdfDiagnostic = { message: string; severity: 'error' | 'warning' }

/** The document did not compile: a bug in a template, never in the user's data. */
export class PdfRenderError extends Error {
  readonly diagnostics: PdfDiagnostic[]
  constructor(diagnostics: PdfDiagnostic[]) {
    super(`PDF document failed: ${diagnostics.map((d) => `${d.severity}: ${d.message}`).join('; ')}`)
    this.name = 'PdfRenderError'
    this.diagnostics = diagnostics
  }
}

const imagePath = /^(?:[a-z0-9][a-z0-9_-]*\/)*[a-z0-9][a-z0-9_-]*\.(?:svg|png|jpe?g|gif|webp)$/

function readDiagnostics(raw: unknown): PdfDiagnostic[] {
  if (!Array.isArray(raw)) return []
  return raw.map((d: { message?: unknown; severity?: unknown }) => ({
    message: String(d.message ?? d),
    severity: d.severity === 2 ? 'warning' : 'error',
  }))
}

function loadFonts(): Buffer[] {
  const require = createRequire(import.meta.url)
  return Object.keys(fontFiles).map((file) => readFileSync(require.resolve(file)))
}

/**
 * A renderer with one typst compiler, created on first use and reused: creating one costs about
 * 60 ms with the fonts, a render with a warm compiler a few milliseconds.
 *
 * Memory: the native memory of a render (about the size of the fonts it used) is released only
 * after the event loop turns, so a loop that renders many PDFs in a row must await
 * `setImmediate` between renders (request handlers do anyway); otherwise it grows by that much
 * per render until the loop ends.
 */
export function createPdfRenderer(): PdfRenderer {
  let compiler: NodeCompiler | undefined
  const getCompiler = () => (compiler ??= NodeCompiler.create({ workspace: root, fontArgs: [{ fontBlobs: loadFonts() }] }))

  /** Runs one output of the document with its images mapped, and only for that call. */
  function withDocument<T>(
    source: string,
    options: RenderPdfOptions,
    output: (typst: NodeCompiler, args: { mainFileContent: string; inputs: Record<string, string> }) => T,
  ): T {
    const typst = getCompiler()
    const images = Object.entries(options.images ?? {})
    for (const [name] of images) {
      if (!imagePath.test(name) || name.split('/').includes('..')) throw new RangeError(`invalid image path: ${name}`)
    }
    // The compiler is shared and this function never yields to the event loop between mapping
    // the images and unmapping them, so two renders cannot see each other's files.
    for (const [name, bytes] of images) {
      typst.mapShadow(`${root}/${name}`, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    }
    const args = { mainFileContent: preamble + source, inputs: options.inputs ?? {} }
    try {
      try {
        return output(typst, args)
      } catch (error) {
        if (error instanceof PdfRenderError) throw error
        // The thrown error carries only the first message: compile again for all of them.
        const failed = typst.compile(args).takeError()
        const diagnostics = failed ? readDiagnostics(typst.fetchDiagnostics(failed)) : []
        throw new PdfRenderError(diagnostics.length ? diagnostics : [{ message: errorText(error), severity: 'error' }])
      }
    } finally {
      for (const [name] of images) typst.unmapShadow(`${root}/${name}`)
      // Keeps typst's memo cache from growing with every distinct invoice in a long-lived process.
      typst.evictCache(10)
    }
  }

  const checkFonts = (pdf: Uint8Array) => {
    const foreign = embeddedFonts(pdf).filter((name) => !shippedFonts.has(name))
    if (foreign.length) throw new PdfRenderError(foreign.map((name) => ({ message: `font not shipped: ${name}`, severity: 'error' })))
    return pdf
  }

  return {
    renderPdf(source, options = {}) {
      // pdf() straight from the source: compile() first would hand back document objects
      // that hold several times more memory until they are finalised.
      return withDocument(source, options, (typst, args) => checkFonts(typst.pdf(args)))
    },
    renderDocument(source, options, outputs) {
      return withDocument(source, options, (typst, args) => {
        const compiled = typst.compile(args)
        const document = compiled.result
        // The catch in withDocument compiles again to collect every diagnostic.
        if (!document) throw new Error(errorText(compiled.takeError()))
        return {
          pdf: outputs.pdf ? checkFonts(typst.pdf(document)) : undefined,
          svg: outputs.svg ? pagesInPlace(typst.plainSvg(document)) : undefined,
          pages: document.numOfPages,
        }
      })
    },
    renderSvg(source, options = {}) {
      // The same font rules apply (the preamble); an SVG embeds no fonts, only glyph outlines.
      return withDocument(source, options, (typst, args) => pagesInPlace(typst.plainSvg(args)))
    },
  }
}

/**
 * typst-ts 0.7.0 writes each page's background before the page's group, untranslated, so every
 * page after the first paints a white sheet over the first page. Each background moves into its
 * page's group, where the page's offset applies to it.
 */
function pagesInPlace(svg: string): string {
  return svg.replace(
    /(<path class="typst-shape"[^>]*\/>)(\s*)(<g(?: transform="[^"]*")?>)/g,
    (_all, background: string, space: string, group: string) => `${group}${space}${background}`,
  )
}

/** napi errors carry typst's message in `code` (`0: expected expression`). */
function errorText(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && code) return code
  return error instanceof Error ? error.message : String(error)
}

/** The fonts a PDF embeds, by PostScript name without the subset tag (typst writes font dictionaries uncompressed). */
export function embeddedFonts(pdf: Uint8Array): string[] {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1')
  const names = new Set<string>()
  for (const match of text.matchAll(/\/BaseFont\s*\/(?:[A-Z]{6}\+)?([\w.-]+)/g)) names.add(match[1] ?? '')
  return [...names]
}

let shared: PdfRenderer | undefined

/** Renders with the process's one shared compiler. */
export function renderPdf(source: string, options?: RenderPdfOptions): Uint8Array {
  shared ??= createPdfRenderer()
  return shared.renderPdf(source, options)
}

/** The document's pages as one SVG, with the same shared compiler (see PdfRenderer.renderSvg). */
export function renderSvg(source: string, options?: RenderPdfOptions): string {
  shared ??= createPdfRenderer()
  return shared.renderSvg(source, options)
}

/**
 * User text as a typst string literal, safe wherever typst expects an expression:
 * `#text(weight: "bold", ${typstString(name)})`, or in markup as `#${typstString(name)};` (the
 * semicolon ends the expression, so a following `(`, `[` or `.x` stays plain text). Prefer
 * passing values through `inputs` (`sys.inputs.name`), which needs no escaping at all.
 */
export function typstString(text: string): string {
  let out = '"'
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    if (char === '\\') out += '\\\\'
    else if (char === '"') out += '\\"'
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029) out += `\\u{${code.toString(16)}}`
    else out += char
  }
  return `${out}"`
}
