import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createPdfRenderer, embeddedFonts, PdfRenderError, renderPdf, typstString } from './pdf.server.ts'

// poppler-utils read the PDF from standard input ('-'), so no temporary files.
const pdftotext = (pdf: Uint8Array) =>
  execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: pdf })
    .toString('utf8')
    // Poppler marks the direction of each run with embedding controls; the words stay as they are.
    .replace(/[\u202A-\u202E]/g, '')
const pdffonts = (pdf: Uint8Array) => execFileSync('/usr/bin/pdffonts', ['-'], { input: pdf }).toString('utf8')
function pdfimages(pdf: Uint8Array) {
  // pdfimages needs a file.
  const dir = mkdtempSync(path.join(tmpdir(), 'hallil-pdf-'))
  try {
    writeFileSync(path.join(dir, 'doc.pdf'), pdf)
    return execFileSync('/usr/bin/pdfimages', ['-list', path.join(dir, 'doc.pdf')]).toString('utf8')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// Every character typst gives a meaning to in markup, code or strings.
const evil = String.raw`#"evil" [x] *b* _i_ $m$ \\ @ref <l> // /* ~ --- = - + 1. \u{41} ${'`'}raw${'`'}`

describe('renderPdf', () => {
  it('typesets Arabic and English with the shipped fonts only, embedded', () => {
    const pdf = renderPdf(
      '#set text(lang: "ar", dir: rtl)\nفاتورة ضريبية مبسطة لعام 2026 عبر Apple Pay\n\n#text(dir: ltr, lang: "en")[Simplified Tax Invoice]',
    )
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-')
    const text = pdftotext(pdf)
    expect(text).toContain('فاتورة ضريبية مبسطة')
    expect(text).toContain('Apple Pay')
    expect(text).toContain('Simplified Tax Invoice')

    const fonts = pdffonts(pdf).split('\n').slice(2).filter(Boolean)
    expect(fonts.length).toBeGreaterThan(0)
    for (const line of fonts) {
      // name, type…, emb, sub, uni: the subset prefix, then one of the two shipped families.
      expect(line).toMatch(/^[A-Z]{6}\+(Amiri|IBMPlexSansArabic)-\w+\s/)
      expect(line).toMatch(/\byes\s+yes\s+yes\s+\d+\s+\d+\s*$/)
    }
    // The renderer's own check sees the same fonts.
    expect(embeddedFonts(pdf).sort()).toEqual(['Amiri-Regular', 'IBMPlexSansArabic-Regular'])
  })

  it('keeps a word whole where Amiri kerns ي under ر (extraction reads no space inside it)', () => {
    const text = pdftotext(renderPdf('#set text(lang: "ar", dir: rtl)\nطريق الرياض السريعة ريال'))
    expect(text).toContain('طريق الرياض السريعة ريال')
  })

  it('prints user text literally through sys.inputs', () => {
    const text = pdftotext(renderPdf('Name: #sys.inputs.name.', { inputs: { name: evil } }))
    expect(text).toContain(`Name: ${evil}.`)
  })

  it('prints user text literally as an escaped string, in markup and in code', () => {
    const source = [
      `Markup: #${typstString(evil)};(after)`,
      '',
      `#text(weight: "bold", "Code: " + ${typstString(evil)})`,
      '',
      `#let names = (${typstString('a"b\\c\nd\te\u0000f')},)`,
      `Controls: #names.at(0).len()`,
    ].join('\n')
    const text = pdftotext(renderPdf(source))
    expect(text).toContain(`Markup: ${evil}(after)`)
    expect(text).toContain(`Code: ${evil}`)
    // a " b \ c newline d tab e NUL f: 11 bytes, every character kept.
    expect(text).toContain('Controls: 11')
  })

  it('reads images from memory, only during their own render', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#0f5d52' } })
      .png()
      .toBuffer()
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><rect width="1" height="1"/></svg>')
    const renderer = createPdfRenderer()
    const pdf = renderer.renderPdf('#image("/charts/bar.png", width: 2cm) #image("logo.svg", width: 1cm)', {
      images: { 'charts/bar.png': png, 'logo.svg': svg },
    })
    expect(pdfimages(pdf)).toMatch(/^\s*1\s+0\s+image\s+4\s+4\s/m)
    expect(() => renderer.renderPdf('#image("/charts/bar.png")')).toThrow(/failed to load file/)
  })

  it('refuses image paths outside the document and reads nothing from the disk', () => {
    const renderer = createPdfRenderer()
    expect(() => renderer.renderPdf('x', { images: { '../secret.png': new Uint8Array() } })).toThrow(RangeError)
    expect(() => renderer.renderPdf('x', { images: { '/etc/x.png': new Uint8Array() } })).toThrow(RangeError)
    expect(() => renderer.renderPdf('#read("/etc/hostname")')).toThrow(PdfRenderError)
    expect(() => renderer.renderPdf('#read("../../../etc/hostname")')).toThrow(PdfRenderError)
    expect(() => renderer.renderPdf('#image("/usr/share/pixmaps/debian-logo.png")')).toThrow(PdfRenderError)
  })

  it('fails with the diagnostics, refuses fonts it does not ship, and works again after', () => {
    const renderer = createPdfRenderer()
    expect(() => renderer.renderPdf('#let x = ')).toThrow(PdfRenderError)
    const failure = (() => {
      try {
        renderer.renderPdf('#panic("template bug")')
      } catch (error) {
        return error
      }
    })()
    expect(failure).toBeInstanceOf(PdfRenderError)
    expect((failure as PdfRenderError).diagnostics).toEqual([{ severity: 'error', message: 'panicked with: "template bug"' }])
    // A font that is not shipped (here a system font, or an unknown one where it is not installed)
    // would make the PDF depend on the machine.
    expect(() => renderer.renderPdf('#text(font: "DejaVu Sans")[x]')).toThrow(/font not shipped: DejaVuSans|unknown font family/)
    expect(pdftotext(renderer.renderPdf('still fine'))).toContain('still fine')
  })

  it('draws the same document as SVG: pages stacked without gaps, glyphs as outlines, images inline', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#0f5d52' } })
      .png()
      .toBuffer()
    const renderer = createPdfRenderer()
    const source =
      '#set page(paper: "a4")\n#set text(lang: "ar", dir: rtl)\nاختبار #image("/fig.png", width: 1cm)\n#pagebreak()\nالصفحة الثانية'
    const svg = renderer.renderSvg(source, { images: { 'fig.png': png } })
    // Two A4 pages (595.28 × 841.89 pt) one under the other.
    const [width, height] = (/viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg) ?? []).slice(1).map(Number)
    expect(width).toBeCloseTo(595.28, 1)
    expect(height).toBeCloseTo(2 * 841.89, 1)
    expect(svg).toContain('data:image/png;base64,')
    // Each page's white background lies inside its own page's group: the second one does not cover the first page.
    expect(svg).toMatch(/<g transform="matrix\(1 0 0 1 0 841\.8\d*\)">\s*<path class="typst-shape" fill="#ffffff"/)
    expect(svg).not.toMatch(/<\/g>\s*<path class="typst-shape" fill="#ffffff"/)
    expect(svg).not.toMatch(/<text\b|font-family/)
    expect(() => renderer.renderSvg('#image("/fig.png")')).toThrow(PdfRenderError)
    expect(() => renderer.renderSvg('#read("/etc/hostname")')).toThrow(PdfRenderError)
  })

  it('renders with a warm compiler in milliseconds', () => {
    const renderer = createPdfRenderer()
    const source =
      '#set page(paper: "a4")\n#set text(lang: "ar", dir: rtl)\n= تقرير الغياب\n#table(columns: 3, ..range(60).map(i => [صف #i]))'
    renderer.renderPdf(source.replace('الغياب', 'الحضور'))
    const times: number[] = []
    for (let i = 0; i < 20; i++) {
      const start = performance.now()
      // A different title each time, so the memo cache cannot answer with the last page.
      const pdf = renderer.renderPdf(source.replace('الغياب', `الغياب ${i}`))
      times.push(performance.now() - start)
      expect(pdf.byteLength).toBeGreaterThan(1000)
    }
    times.sort((a, b) => a - b)
    // Measured, not asserted: machines differ.
    console.info(`pdf: warm median render of a one-page Arabic table ${times[10]?.toFixed(1)} ms over 20 renders`)
  })
})
