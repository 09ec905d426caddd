import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Blob, Buffer as HbBuffer, Face, Font, shape } from 'harfbuzzjs'
import { convert } from 'fontverter'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildSiteFonts, CORE_RANGES, fontsourceFaces, formatUnicodeRange, parseUnicodeRange, subtractRanges } from './site-fonts.ts'

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname))
const full = (name: string) =>
  readFileSync(path.join(root, `node_modules/@expo-google-fonts/ibm-plex-sans-arabic/${name}/IBMPlexSansArabic_${name}.ttf`))

type FontFace = { file: string; weight: number; ranges: Array<readonly [number, number]> }
function facesOf(css: string): FontFace[] {
  return [...css.matchAll(/@font-face\s*{([^}]*)}/g)].map(([, body]) => ({
    file: /url\(\.\/([^)]+)\)/.exec(body!)![1]!,
    weight: Number(/font-weight:\s*(\d+)/.exec(body!)![1]),
    ranges: parseUnicodeRange(/unicode-range:\s*([^;]+);/.exec(body!)![1]!),
  }))
}
const codePoints = (ranges: ReadonlyArray<readonly [number, number]>) => {
  const set = new Set<number>()
  for (const [from, to] of ranges) for (let cp = from; cp <= to; cp++) set.add(cp)
  return set
}

/** Glyph advances and offsets HarfBuzz gives `text` in `font` (glyph ids differ between a font and its subset). */
function shaped(font: Uint8Array, text: string) {
  const buffer = new HbBuffer()
  buffer.addText(text)
  buffer.guessSegmentProperties()
  shape(new Font(new Face(new Blob(font), 0)), buffer)
  return buffer.getGlyphPositions().map((p) => [p.xAdvance, p.xOffset, p.yOffset])
}

describe('unicode ranges', () => {
  it('read and write the CSS form', () => {
    const text = 'U+0600-06FF,U+200C,U+1EE00-1EE03'
    expect(parseUnicodeRange(text)).toEqual([
      [0x600, 0x6ff],
      [0x200c, 0x200c],
      [0x1ee00, 0x1ee03],
    ])
    expect(formatUnicodeRange(parseUnicodeRange(text))).toBe(text)
  })

  it('leave out what is taken, splitting ranges', () => {
    expect(
      subtractRanges(
        [
          [0x10, 0x20],
          [0x30, 0x31],
        ],
        new Set([0x10, 0x15, 0x16, 0x20, 0x31]),
      ),
    ).toEqual([
      [0x11, 0x14],
      [0x17, 0x1f],
      [0x30, 0x30],
    ])
    expect(subtractRanges([[0x10, 0x11]], new Set([0x10, 0x11]))).toEqual([])
  })
})

describe('the site fonts', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'hallil-fonts-'))
  let faces: FontFace[] = []
  let written: string[] = []
  beforeAll(async () => {
    written = await buildSiteFonts(out)
    faces = facesOf(readFileSync(path.join(out, 'fonts.css'), 'utf8'))
  }, 60_000)

  it('are written once: the same inputs again write nothing', async () => {
    expect(written).toContain('fonts.css')
    expect(await buildSiteFonts(out)).toEqual([])
  })

  it('give each weight one core file holding the Arabic letters, digits and ASCII it claims', async () => {
    for (const [weight, name] of [
      [400, '400Regular'],
      [600, '600SemiBold'],
      [700, '700Bold'],
    ] as const) {
      const core = faces.filter((f) => f.weight === weight && f.file.startsWith('plex-core-'))
      expect(core).toHaveLength(1)
      const sfnt = await convert(readFileSync(path.join(out, core[0]!.file)), 'sfnt')
      const inFile = new Set(new Face(new Blob(sfnt), 0).collectUnicodes())
      const inFull = new Set(new Face(new Blob(full(name)), 0).collectUnicodes())
      const claimed = codePoints(core[0]!.ranges)
      for (const cp of 'ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأؤإئةى٠١٢٣٤٥٦٧٨٩،؟؛ 0123456789ABCxyz.,:%()«»')
        expect(claimed.has(cp.codePointAt(0)!)).toBe(true)
      // Every character it claims that the full font draws, it draws too.
      expect([...claimed].filter((cp) => inFull.has(cp) && !inFile.has(cp))).toEqual([])
      expect([...codePoints(CORE_RANGES)].filter((cp) => inFull.has(cp) && !claimed.has(cp))).toEqual([])
    }
  })

  it('shape Arabic and Latin exactly as the full font does (joining forms, lam-alef, marks, kerning)', async () => {
    const samples = [
      'تحليل الغياب بعذر وبدون عذر',
      'لا إله، مُعلِّمة ١٢٣ — ٪٥٠',
      'الصف الأول متوسط: ٤٥٫٥ من ٥٠',
      'Hallil: 15% VAT, SAR 1,150.00 (AV To)',
    ]
    for (const [weight, name] of [
      [400, '400Regular'],
      [700, '700Bold'],
    ] as const) {
      const core = await convert(readFileSync(path.join(out, `plex-core-${weight}.woff2`)), 'sfnt')
      for (const text of samples) expect(shaped(core, text)).toEqual(shaped(full(name), text))
    }
  })

  it('lose no character Fontsource covered, and leave the core characters to the core file alone', () => {
    for (const weight of [400, 600, 700]) {
      const own = faces.filter((f) => f.weight === weight)
      const covered = new Set(own.flatMap((face) => [...codePoints(face.ranges)]))
      const fontsource = fontsourceFaces(
        readFileSync(path.join(root, `node_modules/@fontsource/ibm-plex-sans-arabic/${weight}.css`), 'utf8'),
      )
      for (const face of fontsource) for (const cp of codePoints(face.ranges)) expect(covered.has(cp)).toBe(true)
      const core = codePoints(own.find((f) => f.file.startsWith('plex-core-'))!.ranges)
      for (const face of own.filter((f) => !f.file.startsWith('plex-core-'))) {
        for (const cp of codePoints(face.ranges)) expect(core.has(cp)).toBe(false)
        expect(readdirSync(out)).toContain(face.file)
      }
    }
  })

  it('are much smaller for an Arabic page than Fontsource’s files were', () => {
    const size = (file: string) => readFileSync(path.join(out, file)).length
    const before = [400, 600, 700]
      .flatMap((w) => [`plex-arabic-${w}-normal.woff2`, `plex-latin-${w}-normal.woff2`])
      .reduce((sum, f) => sum + size(f), 0)
    const after = [400, 600, 700].reduce((sum, w) => sum + size(`plex-core-${w}.woff2`), 0)
    expect(after).toBeLessThan(before * 0.6)
  })
})
