import path from 'node:path'
import { expect, test, type Page } from './fixtures.ts'
import { axe } from './helpers.ts'
import { subscribedTeacher } from './teacher.ts'

// The product looks like one product (issue 16, visual consistency), checked in Chromium where
// it can be measured: key figures in lines that never leave one card alone on the last, the
// phone's header with its logo and a one-line "إنشاء حساب", the focus ring in the product's
// colour, the file chooser in the page's language and working without JavaScript, one bar for
// a report's exports. Layout does not depend on the database: each runs once (@once).

const noor = path.resolve('tests/fixtures/noor')
const phone = { width: 390, height: 844 }

/** The cards of each `.key-figures` grid, by line (cards whose tops are level share one). */
async function keyFigureLines(page: Page) {
  return page.locator('dl.key-figures').evaluateAll((grids) =>
    grids
      .filter((grid) => grid.checkVisibility())
      .map((grid) => {
        const tops = [...grid.children].map((card) => Math.round(card.getBoundingClientRect().top))
        const lines = new Map<number, number>()
        for (const top of tops) lines.set(top, (lines.get(top) ?? 0) + 1)
        return { cards: tops.length, lines: [...lines.entries()].toSorted((a, b) => a[0] - b[0]).map(([, n]) => n) }
      }),
  )
}

async function expectNoLoneCard(page: Page, where: string) {
  for (const width of [1280, 1024, 820, 600, 390]) {
    await page.setViewportSize({ width, height: 900 })
    const grids = await keyFigureLines(page)
    expect(grids.length, `${where}: key figures shown`).toBeGreaterThan(0)
    for (const grid of grids) {
      if (grid.cards < 2) continue
      expect(
        grid.lines.at(-1),
        `${where} at ${width} px: ${grid.cards} cards in lines of ${grid.lines.join(' + ')}`,
      ).toBeGreaterThanOrEqual(2)
      // As even as the width allows: no line holds two cards more than another.
      expect(Math.max(...grid.lines) - Math.min(...grid.lines), `${where} at ${width} px: ${grid.lines.join(' + ')}`).toBeLessThanOrEqual(1)
    }
  }
}

async function upload(page: Page, route: string, file: string) {
  await page.goto(route)
  await page.locator('input[type="file"]').setInputFiles(file)
  await page.locator('form.upload-form button[type="submit"]').click()
  await expect(page).toHaveURL(/\/single-analysis\?id=/)
  await expect(page.locator('dl.key-figures').first()).toBeVisible()
}

function luminance([r, g, b]: number[]) {
  const [R, G, B] = [r!, g!, b!].map((v) => {
    const s = v / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!
}
const contrast = (a: number[], b: number[]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}
const rgb = (css: string) => (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number)

/** The header at a phone's width: every control inside the screen, the logo whole, each button on one line. */
async function expectPhoneHeader(page: Page) {
  for (const width of [phone.width, 360]) await expectPhoneHeaderAt(page, width)
  await page.setViewportSize(phone)
}

async function expectPhoneHeaderAt(page: Page, width: number) {
  await page.setViewportSize({ width, height: phone.height })
  const header = await page.locator('header.site-header').evaluate((el) => {
    const mark = el.querySelector('.brand-mark')!.getBoundingClientRect()
    const controls = [
      ...el.querySelectorAll<HTMLElement>('.brand, .header-actions > *, .header-actions .button, .lang-switch, summary'),
    ].filter((c) => c.checkVisibility())
    return {
      mark: { width: mark.width, height: mark.height },
      overflow: el.querySelector('.header-inner')!.scrollWidth - el.querySelector('.header-inner')!.clientWidth,
      outside: controls
        .filter((c) => {
          const r = c.getBoundingClientRect()
          return r.left < 0 || r.right > window.innerWidth
        })
        .map((c) => c.textContent),
      // A control's text on one line: its box no taller than one line of it plus its padding.
      wrapped: controls
        .filter((c) => c.matches('.button, .lang-switch'))
        .filter((c) => {
          // The lines of its visible text (a visually hidden part of its name is not on show).
          const walker = document.createTreeWalker(c, NodeFilter.SHOW_TEXT)
          const lines = new Set<number>()
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.parentElement?.closest('.visually-hidden') || !node.textContent?.trim()) continue
            const range = document.createRange()
            range.selectNodeContents(node)
            for (const r of range.getClientRects()) if (r.width > 0) lines.add(Math.round(r.top))
          }
          return lines.size > 1
        })
        .map((c) => c.textContent),
    }
  })
  expect(header.mark.width, `the logo keeps its size at ${width} px`).toBeGreaterThanOrEqual(28)
  expect(header.mark.height).toBeGreaterThanOrEqual(28)
  expect(header.overflow, `nothing pushed out of the bar at ${width} px`).toBeLessThanOrEqual(0)
  expect(header.outside, `inside the screen at ${width} px`).toEqual([])
  expect(header.wrapped, `buttons on one line at ${width} px`).toEqual([])
}

for (const lang of ['ar', 'en'] as const) {
  test(
    `${lang}: a guest's phone header keeps the logo and a one-line "create account"; the focus ring is the product's colour`,
    { tag: '@once' },
    async ({ page }) => {
      await page.goto(`/${lang}`)
      // The product shown on the home page: pictures of the real report and printed test in the
      // page's language, sized before they load, fetched only when near, the report in the page's mode.
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        const shots = page.locator('.product-shots img')
        await page.locator('.product-shots').scrollIntoViewIfNeeded()
        const seen = await shots.evaluateAll((imgs) =>
          (imgs as HTMLImageElement[])
            .filter((img) => img.checkVisibility())
            .map((img) => ({
              src: img.getAttribute('src'),
              alt: img.alt,
              width: img.getAttribute('width'),
              height: img.getAttribute('height'),
              loading: img.loading,
            })),
        )
        expect(seen.map((s) => s.src)).toEqual([`/product/report-${lang}-${scheme}.webp`, `/product/test-${lang}.webp`])
        for (const shot of seen) {
          expect(shot.alt.length).toBeGreaterThan(40)
          expect(Number(shot.width)).toBeGreaterThan(0)
          expect(Number(shot.height)).toBeGreaterThan(0)
          expect(shot.loading).toBe('lazy')
        }
        await expect
          .poll(() =>
            shots.evaluateAll((imgs) =>
              (imgs as HTMLImageElement[]).filter((img) => img.checkVisibility()).every((img) => img.complete && img.naturalWidth > 0),
            ),
          )
          .toBe(true)
      }
      await page.emulateMedia({ colorScheme: 'light' })
      await expectPhoneHeader(page)
      await expect(page.locator('.guest-actions .button-primary')).toBeVisible()
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        await page.locator('.lang-switch').focus()
        await page.keyboard.press('Shift+Tab')
        await page.keyboard.press('Tab')
        const ring = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement
          const root = getComputedStyle(document.documentElement)
          const probe = document.createElement('span')
          probe.style.color = root.getPropertyValue('--brand')
          document.body.append(probe)
          const brand = getComputedStyle(probe).color
          probe.style.color = root.getPropertyValue('--focus')
          const focus = getComputedStyle(probe).color
          probe.remove()
          return {
            outline: getComputedStyle(el).outlineColor,
            style: getComputedStyle(el).outlineStyle,
            brand,
            focus,
            page: getComputedStyle(document.body).backgroundColor,
          }
        })
        expect(ring.style).toBe('solid')
        expect(ring.outline).toBe(ring.focus)
        // The product's green: the same hue family as the brand (green the largest channel), not the browser's blue.
        const [r, g, b] = rgb(ring.outline)
        expect(g!, `focus ring ${ring.outline} is green`).toBeGreaterThan(b!)
        expect(g!).toBeGreaterThan(r!)
        expect(contrast(rgb(ring.outline), rgb(ring.page)), `focus ring contrast, ${scheme}`).toBeGreaterThanOrEqual(3)
      }
    },
  )
}

test('key figures in balanced lines, one bar of exports, the phone header of a teacher, axe clean', { tag: '@once' }, async ({ page }) => {
  test.setTimeout(300_000)
  await subscribedTeacher(page, 'ar', 'visual')
  await page.goto('/ar')
  await expectPhoneHeader(page)
  await page.setViewportSize({ width: 1280, height: 900 })

  // The absence report of a daily Noor file: eight key figures.
  await upload(page, '/ar/analysis', path.join(noor, 'absence-daily-noor.xls'))
  await expectNoLoneCard(page, 'absence')
  // The student search's six figures too.
  await page.getByLabel('الاسم الكامل للطالب').fill('سعد فيصل ناصر العتيبي')
  await page.getByRole('button', { name: 'بحث', exact: true }).click()
  await expect(page.locator('.student-card')).toHaveCount(1)
  await expectNoLoneCard(page, 'absence with a student')

  // The exports together in one bar, the deletion at its other end.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    const bar = page.locator('.report-toolbar')
    await expect(bar).toHaveCount(1)
    await expect(bar.getByRole('group', { name: 'تصدير التقرير' }).getByRole('link')).toHaveText(['تصدير PDF', 'تصدير Excel'])
    await expect(page.locator('a[href*="/export."]')).toHaveCount(2)
    const boxes = await bar
      .locator('a, summary')
      .evaluateAll((els) =>
        els
          .filter((el) => el.checkVisibility())
          .map((el) => ({ text: el.textContent, left: el.getBoundingClientRect().left, right: el.getBoundingClientRect().right })),
      )
    // The exports, the follow-up's two links (parent messages by step, the trends), the deletion.
    expect(boxes.map((box) => box.text)).toEqual([
      'تصدير PDF',
      'تصدير Excel',
      'رسائل أولياء الأمور حسب الخطوة',
      'اتجاهات الغياب',
      'حذف التحليل',
    ])
    for (const box of boxes) {
      expect(box.left, `"${box.text}" at ${width} px`).toBeGreaterThanOrEqual(0)
      expect(box.right, `"${box.text}" at ${width} px`).toBeLessThanOrEqual(width)
    }
  }
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const results = await axe(page).analyze()
    expect(
      results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${scheme} ${v.id}: ${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 3)
              .join(', ')}`,
        ),
    ).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 900 })

  // The tests tool: a help line and its sample, a printed test as PDF.
  await page.goto('/ar/exams-test')
  await expect(page.locator('.page-hero .lead')).toContainText('أضف الأسئلة')
  const sample = await page.request.get((await page.getByRole('link', { name: 'نموذج اختبار مطبوع (PDF)' }).getAttribute('href'))!)
  expect(sample.status()).toBe(200)
  expect(sample.headers()['content-type']).toContain('application/pdf')

  // The grades report of Noor's report cards: eight figures per subject.
  await upload(page, '/ar/analysis-grade', path.join(noor, 'grades-report-cards.xlsx'))
  await expectNoLoneCard(page, 'grades')
})

test(
  'the file chooser speaks the page’s language and works without JavaScript, by mouse and by keyboard',
  { tag: '@once' },
  async ({ page, browser, extraHTTPHeaders }) => {
    test.setTimeout(180_000)
    await subscribedTeacher(page, 'ar', 'file-chooser')
    const noScript = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
      extraHTTPHeaders,
    })
    const bare = await noScript.newPage()
    try {
      await bare.goto(`${test.info().project.use.baseURL}/ar/analysis`)
      const chooser = bare.locator('.upload-form .file-chooser')
      // The page's words, never the browser's ("Choose file", "No file chosen").
      await expect(chooser.locator('label.file-chooser-button')).toHaveText('اختر ملفًا')
      await expect(chooser.locator('.file-chooser-name')).toHaveText('لم تختر ملفًا بعد', { useInnerText: true })
      const input = chooser.locator('input[type="file"]')
      const box = await input.boundingBox()
      expect(box?.width ?? 0, 'the browser’s own control is out of sight').toBeLessThanOrEqual(1)
      await expect(input).toHaveAccessibleName(/اختر ملفًا/)

      // The label drawn as a button opens the file picker, with no script on the page.
      const [byMouse] = await Promise.all([bare.waitForEvent('filechooser'), chooser.locator('label.file-chooser-button').click()])
      await byMouse.setFiles(path.join(noor, 'absence-daily-noor.xls'))
      // A required input says that a file is chosen, still without a script (CSS :valid).
      await expect(chooser.locator('.file-chooser-name')).toHaveText('تم اختيار الملف', { useInnerText: true })

      // The keyboard reaches the hidden input, shows its focus on the button, and opens the picker.
      await input.focus()
      await bare.keyboard.press('Shift+Tab')
      await bare.keyboard.press('Tab')
      await expect(input).toBeFocused()
      const outline = await chooser.locator('label.file-chooser-button').evaluate((el) => getComputedStyle(el).outlineStyle)
      expect(outline).toBe('solid')
      const [byKey] = await Promise.all([bare.waitForEvent('filechooser'), bare.keyboard.press('Space')])
      await byKey.setFiles(path.join(noor, 'absence-daily-noor.xls'))

      // The form is sent by the browser alone and the report opens.
      await bare.locator('form.upload-form button[type="submit"]').click()
      await expect(bare).toHaveURL(/\/single-analysis\?id=/)
      await expect(bare.locator('dl.key-figures').first()).toBeVisible()
    } finally {
      await noScript.close()
    }

    // With the script, the chosen file's name beside the button.
    await page.goto('/ar/analysis')
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
    await page.locator('.upload-form input[type="file"]').setInputFiles(path.join(noor, 'absence-daily-noor.xls'))
    await expect(page.locator('.upload-form .file-chooser-name')).toHaveText('absence-daily-noor.xls')
  },
)

test(
  'on the registration page (no React), the avatar chooser is in the page’s language and names the chosen picture',
  { tag: '@once' },
  async ({ page }) => {
    await page.goto('/ar/SignIn')
    await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true')
    const chooser = page.locator('.file-chooser')
    await expect(chooser.locator('label.file-chooser-button')).toHaveText('اختر صورة')
    await expect(chooser.locator('.file-chooser-name')).toHaveText('لم تختر ملفًا بعد', { useInnerText: true })
    await expect(chooser.locator('input[type="file"]')).toHaveAccessibleName(/الصورة الشخصية.*اختر صورة/)
    await chooser
      .locator('input[type="file"]')
      .setInputFiles({ name: 'صورتي.png', mimeType: 'image/png', buffer: Buffer.from('not checked here') })
    await expect(chooser.locator('.file-chooser-name')).toHaveText('صورتي.png')
  },
)
