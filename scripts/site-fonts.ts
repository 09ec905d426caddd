// The site's web fonts (decision 013): IBM Plex Sans Arabic in the three weights the stylesheet
// uses. Fontsource splits each weight into script subsets (arabic, latin, latin-ext, cyrillic-ext)
// and the latin one covers the space character, so an Arabic page fetched six files (about
// 200 KB) before its text could take the web font. Here each weight gets one "core" file with
// the characters the product's pages are written in (Arabic letters, marks and digits, ASCII,
// common punctuation), cut from the full font with HarfBuzz's subsetter, which keeps the
// shaping rules (initial, medial, final forms, lam-alef) those characters need. Fontsource's
// files stay behind it for everything else (Persian and Urdu letters, accented Latin, Cyrillic),
// with the core characters taken out of their ranges: a browser fetches one of them only when a
// page holds such a character, a student's name for instance.
//
// Written to app/styles/fonts/ (not committed), with the @font-face rules in fonts.css, which
// app.css imports. The Vite plugin in vite.config.ts runs this before every build and dev
// server; a stamp of the inputs skips the work when nothing changed.
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Blob, Face } from 'harfbuzzjs'
import subsetFont from 'subset-font'

const require = createRequire(import.meta.url)
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
export const FONTS_DIR = path.join(root, 'app/styles/fonts')
const FAMILY = 'IBM Plex Sans Arabic'

/** The weights app.css uses, with the names of the full fonts' folders. */
const WEIGHTS = [
  { weight: 400, name: '400Regular' },
  { weight: 600, name: '600SemiBold' },
  { weight: 700, name: '700Bold' },
] as const

type Range = readonly [number, number]

/** What the core file of each weight covers (only the code points the font has are kept). */
export const CORE_RANGES: readonly Range[] = [
  [0x0020, 0x007e], // ASCII
  [0x00a0, 0x00bf], // Latin-1 signs: no-break space, « », °, ·
  [0x00d7, 0x00d7], // ×
  [0x00f7, 0x00f7], // ÷
  [0x060c, 0x060c], // Arabic comma
  [0x061b, 0x061b], // Arabic semicolon
  [0x061f, 0x061f], // Arabic question mark
  [0x0621, 0x065f], // Arabic letters, tatweel, harakat and marks
  [0x0660, 0x066d], // Arabic-Indic digits, percent, decimal and thousands separators
  [0x0670, 0x0670], // superscript alef
  [0x2010, 0x2027], // dashes, quotes, bullet, ellipsis
  [0x2030, 0x203a], // per mille, angle quotes
]

/**
 * Invisible formatting characters (soft hyphen, Arabic letter mark, zero-width joiners, direction
 * marks and isolates, which Intl's Arabic number and date formats insert): shaped as nothing
 * whether or not a font maps them, so the core face claims them and no other file is fetched for
 * one of them.
 */
export const FORMAT_CONTROLS: readonly Range[] = [
  [0x00ad, 0x00ad],
  [0x061c, 0x061c],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
]

const inRanges = (ranges: readonly Range[], cp: number) => ranges.some(([from, to]) => cp >= from && cp <= to)

/** `U+0600-06FF,U+0750` → ranges. */
export function parseUnicodeRange(text: string): Range[] {
  return text.split(',').map((part) => {
    const [from, to = from] = part.trim().replace(/^U\+/i, '').split('-')
    return [Number.parseInt(from!, 16), Number.parseInt(to!, 16)] as const
  })
}

/** Ranges → the CSS `unicode-range` value. */
export function formatUnicodeRange(ranges: readonly Range[]): string {
  const hex = (cp: number) => cp.toString(16).toUpperCase().padStart(4, '0')
  return ranges.map(([from, to]) => (from === to ? `U+${hex(from)}` : `U+${hex(from)}-${hex(to)}`)).join(',')
}

/** The code points of `ranges` not in `taken`, as ranges. */
export function subtractRanges(ranges: readonly Range[], taken: ReadonlySet<number>): Range[] {
  const out: [number, number][] = []
  for (const [from, to] of ranges) {
    for (let cp = from; cp <= to; cp++) {
      if (taken.has(cp)) continue
      const last = out.at(-1)
      if (last && last[1] === cp - 1) last[1] = cp
      else out.push([cp, cp])
    }
  }
  return out
}

/** Code points → the fewest ranges. */
function toRanges(codePoints: Iterable<number>): Range[] {
  return subtractRanges(
    [...codePoints].toSorted((a, b) => a - b).map((cp) => [cp, cp] as const),
    new Set(),
  )
}

/** The @font-face blocks of a Fontsource weight stylesheet: file name and unicode-range. */
export function fontsourceFaces(css: string): { file: string; ranges: Range[] }[] {
  const faces: { file: string; ranges: Range[] }[] = []
  for (const block of css.matchAll(/@font-face\s*{([^}]*)}/g)) {
    const body = block[1]!
    const file = /url\(\.\/files\/([^)]+\.woff2)\)/.exec(body)?.[1]
    const range = /unicode-range:\s*([^;]+);/.exec(body)?.[1]
    if (file && range) faces.push({ file, ranges: parseUnicodeRange(range) })
  }
  return faces
}

function inputsStamp(): string {
  const hash = createHash('sha256')
  hash.update(readFileSync(fileURLToPath(import.meta.url)))
  for (const pkg of ['@fontsource/ibm-plex-sans-arabic', '@expo-google-fonts/ibm-plex-sans-arabic', 'subset-font', 'harfbuzzjs']) {
    hash.update(`${pkg}@${JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version}`)
  }
  return hash.digest('hex')
}

/**
 * Writes the fonts and fonts.css to `FONTS_DIR` unless they are there from the same inputs.
 * Returns the files written (empty when nothing changed).
 */
export async function buildSiteFonts(outDir = FONTS_DIR): Promise<string[]> {
  const stamp = inputsStamp()
  const stampFile = path.join(outDir, '.stamp')
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return []
  rmSync(outDir, { recursive: true, force: true })
  mkdirSync(outDir, { recursive: true })
  const written: string[] = []
  const rules: string[] = []
  const face = (file: string, weight: number, ranges: readonly Range[]) =>
    `@font-face {\n  font-family: '${FAMILY}';\n  font-style: normal;\n  font-display: swap;\n  font-weight: ${weight};\n  src: url(./${file}) format('woff2');\n  unicode-range: ${formatUnicodeRange(ranges)};\n}`
  const fontsourceDir = path.dirname(require.resolve('@fontsource/ibm-plex-sans-arabic/package.json'))
  const fullDir = path.dirname(require.resolve('@expo-google-fonts/ibm-plex-sans-arabic/package.json'))

  for (const { weight, name } of WEIGHTS) {
    const full = readFileSync(path.join(fullDir, name, `IBMPlexSansArabic_${name}.ttf`))
    const available = new Face(new Blob(full), 0).collectUnicodes()
    const core = new Set([...available].filter((cp) => inRanges(CORE_RANGES, cp)))
    for (const [from, to] of FORMAT_CONTROLS) for (let cp = from; cp <= to; cp++) core.add(cp)
    const coreFile = `plex-core-${weight}.woff2`
    writeFileSync(path.join(outDir, coreFile), await subsetFont(full, String.fromCodePoint(...core), { targetFormat: 'woff2' }))
    written.push(coreFile)
    // Fontsource's faces first: for a character in two faces' ranges the last declared wins,
    // and the ranges below leave the core characters out anyway.
    for (const source of fontsourceFaces(readFileSync(path.join(fontsourceDir, `${weight}.css`), 'utf8'))) {
      const rest = subtractRanges(source.ranges, core)
      if (rest.length === 0) continue
      const file = source.file.replace(/^ibm-plex-sans-arabic-/, 'plex-')
      copyFileSync(path.join(fontsourceDir, 'files', source.file), path.join(outDir, file))
      written.push(file)
      rules.push(face(file, weight, rest))
    }
    rules.push(face(coreFile, weight, toRanges(core)))
  }
  writeFileSync(path.join(outDir, 'fonts.css'), `/* Generated by scripts/site-fonts.ts: do not edit. */\n${rules.join('\n')}\n`)
  writeFileSync(stampFile, stamp)
  return [...written, 'fonts.css']
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const written = await buildSiteFonts()
  console.log(
    written.length ? `site fonts: wrote ${written.length} files to ${path.relative(process.cwd(), FONTS_DIR)}` : 'site fonts: up to date',
  )
}
