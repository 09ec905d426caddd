import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ColumnChart, LineChart, type LineSeries } from './charts.tsx'

// The timelines (absence trends, the operator dashboard) drawn as a teacher reads them: time runs
// with the reading direction, the value axis on the inline-start side, the scrolling box reachable
// by keyboard and named by the chart's title.

const labels = ['سبتمبر', 'أكتوبر', 'نوفمبر']
const series: LineSeries[] = [{ key: 'rate', label: 'الحضور', tone: 'present', values: [90, 80, 95] }]
const percent = (v: number) => `${v}%`

function parse(markup: string) {
  const texts = [...markup.matchAll(/<text[^>]*\bx="([\d.]+)"[^>]*>([^<]*)<\/text>/g)].map((m) => ({ x: Number(m[1]), text: m[2] }))
  const at = (text: string) => texts.find((t) => t.text === text)?.x ?? NaN
  return { texts, at }
}

for (const [chartName, chart] of [
  [
    'LineChart',
    (dir: 'rtl' | 'ltr') => <LineChart title="نسبة الحضور" labels={labels} series={series} dir={dir} id="c" formatValue={percent} />,
  ],
  [
    'ColumnChart',
    (dir: 'rtl' | 'ltr') => <ColumnChart title="نسبة الحضور" labels={labels} series={series} dir={dir} id="c" formatValue={percent} />,
  ],
] as const) {
  describe(`${chartName}`, () => {
    it('runs time right to left in Arabic and left to right in English, the axis on the start side', () => {
      const rtl = parse(renderToStaticMarkup(chart('rtl')))
      const ltr = parse(renderToStaticMarkup(chart('ltr')))
      expect(rtl.at('سبتمبر')).toBeGreaterThan(rtl.at('نوفمبر'))
      expect(ltr.at('سبتمبر')).toBeLessThan(ltr.at('نوفمبر'))
      // The 0 tick sits beyond the first period, on the right in Arabic and the left in English.
      expect(rtl.at(percent(0))).toBeGreaterThan(rtl.at('سبتمبر'))
      expect(ltr.at(percent(0))).toBeLessThan(ltr.at('سبتمبر'))
    })

    it('draws a compact copy for a phone, 320 wide, that labels only the first and the last period', () => {
      const markup = renderToStaticMarkup(chart('rtl'))
      const [full = '', compact = ''] = markup.split('chart-compact')
      expect(full).toContain('viewBox="0 0 640 240"')
      expect(compact).toContain('viewBox="0 0 320 240"')
      const labelled = (part: string) =>
        parse(part)
          .texts.filter((t) => labels.includes(t.text ?? ''))
          .map((t) => t.text)
      expect(labelled(full)).toEqual(labels)
      expect(labelled(compact)).toEqual(['سبتمبر', 'نوفمبر'])
      expect(Math.max(...parse(compact).texts.map((t) => t.x))).toBeLessThanOrEqual(320)
    })

    it('is a titled figure whose scrolling box is a focusable region named by the title, the figures in the image’s name', () => {
      const markup = renderToStaticMarkup(chart('rtl'))
      expect(markup).toMatch(/<figure[^>]*aria-labelledby="c-title"/)
      expect(markup).toContain('<figcaption id="c-title" class="chart-title">نسبة الحضور</figcaption>')
      // Two drawings, the full and the compact (CSS shows one), each scrolling box a named region.
      expect(
        markup.match(/<div class="chart-scroll chart-(full|compact)" tabindex="0" role="region" aria-labelledby="c-title">/g),
      ).toHaveLength(2)
      const imageName = /<svg[^>]*aria-label="([^"]*)"/.exec(markup)?.[1] ?? ''
      expect(imageName.startsWith('نسبة الحضور. الحضور: ')).toBe(true)
      for (const v of [90, 80, 95]) expect(imageName).toContain(percent(v))
    })
  })
}
