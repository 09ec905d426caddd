import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from './fixtures.ts'
import { axe } from './helpers.ts'
import { signedInTeacher, subscribedTeacher } from './teacher.ts'

// A signed-in teacher's `/:lang` is her home, with the tools in the main navigation; a guest's is
// the public page, and the server's guest page cache never hands one to the other.

const words = {
  ar: {
    guestTitle: 'من ملف نور إلى تقرير واضح جاهز للطباعة',
    guestNav: ['الرئيسية', 'الباقات', 'من نحن', 'الأسئلة الشائعة', 'تواصل معنا'],
    teacherNav: ['الرئيسية', 'تحليل الغياب', 'سجل المتابعة', 'تحليل الدرجات', 'الاختبارات', 'الباقات'],
    greeting: 'أهلًا بك،',
    tools: { 'ابدأ تحليل الغياب': 'analysis', 'ابدأ تحليل الدرجات': 'analysis-grade', 'افتح اختباراتك': 'exams' },
    notSubscribed: 'لم تشترك في باقة بعد',
    choose: 'اختر باقة',
    oneUnread: 'إشعار واحد غير مقروء',
    noUnread: 'لا توجد إشعارات غير مقروءة',
    markAllRead: 'تعليم الكل كمقروء',
    noAnalyses: 'لم تحفظ أي تحليل بعد.',
    noTests: 'لم تُنشئ أي اختبار بعد.',
    newTest: 'أنشئ اختبارًا',
    active: /سارية حتى/,
    daysLeft: /يبقى منها (\d+ (يومًا|يوم|أيام)|يوم واحد|يومان)/,
    hijri: /هـ/,
    startAbsence: 'ابدأ تحليل الغياب',
    invoice: 'عرض الفاتورة الضريبية',
    absenceTitle: 'تحليل الغياب',
    submit: 'حلّل الملف',
    allAnalyses: 'كل تحليلاتي',
    allTests: 'كل اختباراتي',
    oneQuestion: 'سؤال واحد',
  },
  en: {
    guestTitle: 'From a Noor export to a clear, print-ready report',
    guestNav: ['Home', 'Packages', 'About us', 'FAQ', 'Contact us'],
    teacherNav: ['Home', 'Absence analysis', 'Follow-up', 'Grades analysis', 'Tests', 'Packages'],
    greeting: 'Welcome,',
    tools: { 'Start the absence analysis': 'analysis', 'Start the grades analysis': 'analysis-grade', 'Open your tests': 'exams' },
    notSubscribed: 'You have not subscribed yet',
    choose: 'Choose a package',
    oneUnread: 'One unread notification',
    noUnread: 'No unread notifications',
    markAllRead: 'Mark all as read',
    noAnalyses: 'You have not saved an analysis yet.',
    noTests: 'You have not created a test yet.',
    newTest: 'Create a test',
    active: /is active until/,
    daysLeft: /\d+ days? left/,
    hijri: /AH/,
    startAbsence: 'Start the absence analysis',
    invoice: 'View the tax invoice',
    absenceTitle: 'Absence analysis',
    submit: 'Analyse the file',
    allAnalyses: 'All my analyses',
    allTests: 'All my tests',
    oneQuestion: '1 question',
  },
} as const

const navTexts = (page: Page, selector: string) => page.locator(selector).locator('a').allInnerTexts()

/** Serious and critical axe findings on the page, in both colour modes. */
async function axeFindings(page: Page): Promise<string[]> {
  const found: string[] = []
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const results = await axe(page).analyze()
    for (const v of results.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical' || x.id === 'heading-order'))
      found.push(
        `${scheme} ${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
      )
  }
  await page.emulateMedia({ colorScheme: null })
  return found
}

/** The page at 1280 and 390 px, light and dark, kept among the test's outputs and in .tmp/shots/home. */
async function screenshots(page: Page, name: string) {
  const keep = path.resolve('.tmp/shots/home')
  mkdirSync(keep, { recursive: true })
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      const file = test.info().outputPath(`${name}-${width}-${scheme}.png`)
      await page.screenshot({ path: file, fullPage: true })
      execFileSync('cp', [file, keep])
    }
  }
  await page.emulateMedia({ colorScheme: null })
  await page.setViewportSize({ width: 1280, height: 900 })
}

test('a guest’s home stays the public page, and the page cache never mixes it with a teacher’s', async ({ page, browser }) => {
  const w = words.ar
  const teacherContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.250.1.1' } })
  const teacherPage = await teacherContext.newPage()
  await signedInTeacher(teacherPage, 'ar', 'cache-mix')
  const name = (await teacherPage.locator('.account-name').innerText()).trim()

  // Her home first, then a guest's twice (the second from the cache), then hers again.
  const hers = await teacherPage.request.get('/ar')
  expect(hers.headers()['x-page-cache']).toBeUndefined()
  expect(hers.headers()['cache-control']).toBe('private, no-store')
  expect(await hers.text()).toContain(name)
  for (let i = 0; i < 2; i++) {
    const guest = await page.request.get('/ar')
    const html = await guest.text()
    expect(html).toContain(w.guestTitle)
    expect(html).not.toContain(name)
    expect(html).not.toContain('class="page-hero teacher-hero"')
  }
  expect((await page.request.get('/ar')).headers()['x-page-cache']).toBe('hit')
  const again = await (await teacherPage.request.get('/ar')).text()
  expect(again).toContain(name)
  expect(again).not.toContain(w.guestTitle)
  await teacherContext.close()

  // The guest's page as she sees it: today's hero and the public navigation, no tools.
  await page.goto('/ar')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(w.guestTitle)
  expect(await navTexts(page, 'header nav.main-nav')).toEqual([...w.guestNav])
  await expect(page.locator('header a[href="/ar/analysis"]')).toHaveCount(0)
})

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]

  test(`${lang}: a new teacher lands on her home: the tools, the way to subscribe, her unread welcome, empty lists with their first step`, async ({
    page,
  }) => {
    test.setTimeout(90_000)
    await signedInTeacher(page, lang, 'home-new')
    await expect(page).toHaveURL(new RegExp(`/${lang}$`))
    const name = (await page.locator('.account-name').innerText()).trim()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${w.greeting} ${name}`)

    const main = page.locator('main')
    const tools = main.locator('.home-tools')
    for (const [label, to] of Object.entries(w.tools))
      await expect(tools.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', `/${lang}/${to}`)
    await expect(main.locator('.home-status-card').first()).toContainText(w.notSubscribed)
    await expect(main.getByRole('link', { name: w.choose })).toHaveAttribute('href', `/${lang}/packages`)
    // Activation leaves the welcome notification unread.
    await expect(main.locator('.home-unread')).toHaveText(w.oneUnread)
    await expect(main.locator('#home-analyses-title + .empty-state')).toContainText(w.noAnalyses)
    await expect(main.locator('#home-exams-title + .empty-state')).toContainText(w.noTests)
    await expect(main.locator('#home-exams-title + .empty-state').getByRole('link', { name: w.newTest })).toHaveAttribute(
      'href',
      `/${lang}/exams-test`,
    )

    // The tools in the main navigation: on a desktop in the bar, on a phone in the menu.
    expect(await navTexts(page, 'header nav.main-nav')).toEqual([...w.teacherNav])
    // Where the bar shows, it fits: nothing runs past the header and no link breaks onto two lines.
    for (const width of [1160, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      await expect(page.locator('header nav.main-nav')).toBeVisible()
      const fits = await page
        .locator('.header-inner')
        .evaluate(
          (el) =>
            el.scrollWidth <= el.clientWidth && [...el.querySelectorAll<HTMLElement>('.main-nav a')].every((a) => a.offsetHeight < 48),
        )
      expect(fits, `the bar at ${width} px`).toBe(true)
    }
    await page.setViewportSize({ width: 1100, height: 900 })
    await expect(page.locator('header nav.main-nav')).toBeHidden()
    await page.setViewportSize({ width: 390, height: 844 })
    await expect(page.locator('header nav.main-nav')).toBeHidden()
    await page.locator('.mobile-nav summary').click()
    const phoneMenu = page.locator('.mobile-nav nav')
    await expect(phoneMenu).toBeVisible()
    const phoneLinks = await navTexts(page, '.mobile-nav nav')
    expect(phoneLinks.slice(0, 6)).toEqual([...w.teacherNav])
    // The pages about Hallil stay one tap away, after the tools.
    expect(phoneLinks.slice(6)).toEqual(w.guestNav.slice(2))
    await phoneMenu.getByRole('link', { name: w.teacherNav[4], exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/(exams|packages)$`))

    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/${lang}`)
    expect(await axeFindings(page)).toEqual([])
    if (lang === 'ar') await screenshots(page, `home-new-${lang}`)
  })

  test(`${lang}: after paying she starts the absence analysis, and her home shows her subscription, her latest work and her notifications`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(150_000)
    await subscribedTeacher(page, lang, 'home-paid')
    const result = page.locator('.result-card')
    await expect(result.locator('.dialog-actions a').first()).toHaveText(w.startAbsence)
    await expect(result.getByRole('link', { name: w.invoice })).toHaveAttribute('href', new RegExp(`/${lang}/invoices/`))
    await result.getByRole('link', { name: w.startAbsence }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/analysis$`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(w.absenceTitle)

    // Some work to come back to: the sample file analysed, and a test saved.
    const sample = await page.request.get(`/${lang}/analysis/sample.xlsx`)
    await page.locator('input[type="file"]').setInputFiles({
      name: 'sample.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await sample.body(),
    })
    await page.getByRole('button', { name: w.submit }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`))
    const analysisId = new URL(page.url()).searchParams.get('id')
    const saved = await page.request.post(`/${lang}/exams-test`, {
      headers: { origin: baseURL ?? '', 'content-type': 'application/json' },
      data: {
        title: 'Science quiz — week 3',
        questions: [{ type: 'true_false', text: 'Water boils at 100 °C at sea level.', marks: 1, correct: true }],
      },
    })
    expect(saved.status()).toBe(200)

    await page.goto(`/${lang}`)
    const main = page.locator('main')
    const subscription = main.locator('.home-status-card').first()
    await expect(subscription).toContainText(w.active)
    await expect(subscription).toContainText(w.daysLeft)
    await expect(subscription.locator('.dual-date-hijri')).toContainText(w.hijri)
    await expect(main.locator('#home-analyses-title ~ .recent-items li')).toHaveCount(1)
    await expect(main.locator('#home-analyses-title ~ .recent-items a')).toHaveAttribute(
      'href',
      `/${lang}/single-analysis?id=${analysisId}`,
    )
    await expect(main.locator('#home-analyses-title ~ .recent-items a')).not.toBeEmpty()
    await expect(main.getByRole('link', { name: w.allAnalyses })).toHaveAttribute('href', `/${lang}/last-multiple`)
    await expect(main.locator('#home-exams-title ~ .recent-items li')).toHaveText(new RegExp(`Science quiz — week 3\\s*${w.oneQuestion}`))
    await expect(main.getByRole('link', { name: w.allTests })).toHaveAttribute('href', `/${lang}/exams`)

    // The count is the header's: read them all and both say none.
    const unread = (await main.locator('.home-unread').innerText()).trim()
    expect(unread).not.toBe(w.noUnread)
    await expect(page.locator('.account-button')).toHaveAttribute('aria-label', new RegExp(unread))
    await page.goto(`/${lang}/notifications`)
    await page.getByRole('button', { name: w.markAllRead }).click()
    await expect(page.getByRole('button', { name: w.markAllRead })).toHaveCount(0)
    await page.goto(`/${lang}`)
    await expect(main.locator('.home-unread')).toHaveText(w.noUnread)

    expect(await axeFindings(page)).toEqual([])
    await screenshots(page, `home-${lang}`)
  })
}

test('the tools her page prefetches leave no message behind for a teacher without a subscription: the next page shows only its own', async ({
  page,
}) => {
  await signedInTeacher(page, 'en', 'prefetch')
  // Her home links to the tools, which would turn her away (no subscription); their data
  // fetched ahead is answered empty, without running the tool's guard.
  const prefetched = page.waitForResponse(
    (res) =>
      res.url().endsWith('/en/analysis.data') &&
      /prefetch/.test(res.request().headers()['sec-purpose'] ?? res.request().headers()['purpose'] ?? ''),
  )
  await page.goto('/en/about-us')
  await page.goto('/en')
  expect((await prefetched).status()).toBe(204)
  await page.waitForLoadState('networkidle')
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('hallil_flash')
})
