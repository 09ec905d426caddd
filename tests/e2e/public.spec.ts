import { expect, test } from './fixtures.ts'
import { langs, pagePath, publicPaths, queryE2eDatabase } from './helpers.ts'
import { signedInTeacher } from './teacher.ts'

test.describe('language routing', () => {
  test('/ redirects to Arabic by default, to the browser language, then to the cookie', { tag: '@once' }, async ({ request }) => {
    const plain = await request.get('/', { maxRedirects: 0, headers: { 'accept-language': '' } })
    expect(plain.status()).toBe(302)
    expect(plain.headers().location).toMatch(/\/ar$/)
    const english = await request.get('/', { maxRedirects: 0, headers: { 'accept-language': 'en-US,en;q=0.9' } })
    expect(english.headers().location).toMatch(/\/en$/)
    const cookie = await request.get('/', { maxRedirects: 0, headers: { 'accept-language': 'en', cookie: 'lang=ar' } })
    expect(cookie.headers().location).toMatch(/\/ar$/)
  })

  test('a path without a language gets one', { tag: '@once' }, async ({ request }) => {
    const res = await request.get('/about-us', { maxRedirects: 0, headers: { 'accept-language': 'ar' } })
    expect(res.status()).toBe(302)
    expect(res.headers().location).toMatch(/\/ar\/about-us$/)
  })

  test('Arabic is right to left and English left to right', { tag: '@once' }, async ({ page }) => {
    await page.goto('/ar')
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar')
    await page.goto('/en')
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr')
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  })

  test('the language switch keeps the page and is remembered', { tag: '@once' }, async ({ page, context }) => {
    await page.goto('/ar/about-us')
    // The accessible name starts with the word on screen (WCAG 2.5.3), then says what it does.
    await page.getByRole('link', { name: /^English\s+التبديل إلى الإنجليزية$/ }).click()
    await expect(page).toHaveURL(/\/en\/about-us$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/About/)
    const cookies = await context.cookies()
    const lang = cookies.find((c) => c.name === 'lang')
    expect(lang?.value).toBe('en')
    expect((lang?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600)
    await page.goto('/')
    await expect(page).toHaveURL(/\/en$/)
  })
})

for (const lang of langs) {
  test.describe(`public pages in ${lang}`, () => {
    for (const p of publicPaths) {
      test(`${pagePath(lang, p)} answers 200 with its content`, { tag: '@once' }, async ({ page }) => {
        const response = await page.goto(pagePath(lang, p))
        expect(response?.status()).toBe(200)
        await expect(page.locator('html')).toHaveAttribute('lang', lang)
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
        expect((await page.title()).length).toBeGreaterThan(3)
        await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${pagePath(lang, p)}$`))
        await expect(page.locator('link[rel="alternate"][hreflang="ar"]')).toHaveCount(1)
        await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveCount(1)
        // Indexable: no robots tag (docs/decisions/009).
        await expect(page.locator('meta[name="robots"]')).toHaveCount(0)
        const text = await page.locator('main').innerText()
        expect(text.length).toBeGreaterThan(300)
        expect(text).not.toMatch(/lorem ipsum|\b(common|home|faq|about|privacy|terms|contact|packages)\.[a-z]+\.[a-zA-Z.]+/i)
      })
    }

    test(`an unknown page answers 404 with the message (${lang})`, { tag: '@once' }, async ({ page }) => {
      const response = await page.goto(`/${lang}/no-such-page`)
      expect(response?.status()).toBe(404)
      const expected = lang === 'ar' ? 'الصفحة غير موجودة: /ar/no-such-page' : 'Page not found: /en/no-such-page'
      await expect(page.getByText(expected)).toBeVisible()
      await expect(page.getByRole('link', { name: lang === 'ar' ? 'العودة إلى الرئيسية' : 'Back to home' })).toHaveAttribute('href', '/')
    })
  })
}

test('packages show price, VAT and total on separate lines, the best seller marked', async ({ page }) => {
  await page.goto('/ar/packages')
  const cards = page.locator('.package-card')
  await expect(cards).toHaveCount(3)
  const best = page.locator('.package-card.is-best-seller')
  await expect(best).toHaveCount(1)
  await expect(best.getByText('الأكثر طلباً')).toBeVisible()
  await expect(best.getByText('السعر قبل الضريبة')).toBeVisible()
  await expect(best.getByText('ضريبة القيمة المضافة (15%)')).toBeVisible()
  await expect(best.locator('.price-total dd')).toHaveText(/^\d[\d,]*\.\d{2} ر\.س$/)
  await page.goto('/en/packages')
  await expect(page.locator('.package-card.is-best-seller .price-total dd')).toHaveText(/^SAR \d[\d,]*\.\d{2}$/)
})

test('the home page shows the packages from the database and four questions', async ({ page }) => {
  await page.goto('/en')
  await expect(page.locator('.package-card')).toHaveCount(3)
  await expect(page.locator('.faq-item')).toHaveCount(4)
})

test.describe('contact form', () => {
  test('sends a message (Arabic) and stores it', async ({ page }) => {
    await page.goto('/ar/contact-us')
    const email = `teacher-${Date.now()}@school.example`
    await page.getByLabel('الاسم').fill('معلمة الرياضيات')
    await page.getByLabel('البريد الإلكتروني').fill(email)
    await page.getByLabel('نوع الرسالة').selectOption('suggestion')
    await page.getByRole('textbox', { name: 'الرسالة' }).fill('أقترح إضافة مقارنة بين فصلين في تقرير الغياب.')
    await page.getByRole('button', { name: 'إرسال الرسالة' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'تم إرسال الرسالة بنجاح' }).first()).toBeVisible()
    // The toast sits at the top of the inline end (left in Arabic) and leaves after 5 s.
    const toast = page.locator('.toast')
    await expect(toast).toHaveCount(1)
    const box = await toast.boundingBox()
    expect(box!.x).toBeLessThan(100)
    await expect(toast).toHaveCount(0, { timeout: 6_500 })
    const rows = await queryE2eDatabase<{ type: string; lang: string }>('select type, lang from contact_messages where email = $1', [email])
    if (rows) expect(rows).toEqual([{ type: 'suggestion', lang: 'ar' }])
  })

  test('shows each error beside its field, in English, with the focus on the first', { tag: '@once' }, async ({ page }) => {
    await page.goto('/en/contact-us')
    await page.getByLabel('Email').fill('not-an-email')
    await page.getByRole('button', { name: 'Send message' }).click()
    await expect(page.getByText('Invalid email address')).toBeVisible()
    await expect(page.getByText('Name is required')).toBeVisible()
    await expect(page.getByText('Choose the message type')).toHaveCount(2) // the placeholder option and the error
    await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByLabel('Name')).toBeFocused()
  })
})

test('a toast dragged away by 60% of its width is dismissed', { tag: '@once' }, async ({ page }) => {
  await page.goto('/en/contact-us')
  await page.getByLabel('Name').fill('Drag Test')
  await page.getByLabel('Email').fill(`drag-${Date.now()}@school.example`)
  await page.getByLabel('Message type').selectOption('other')
  await page.getByRole('textbox', { name: 'Message' }).fill('Checking that notifications can be swiped away.')
  await page.getByRole('button', { name: 'Send message' }).click()
  const toast = page.locator('.toast')
  await expect(toast).toHaveCount(1)
  const box = (await toast.boundingBox())!
  expect(box.x + box.width).toBeGreaterThan(1000) // top-right in English
  await page.mouse.move(box.x + 20, box.y + box.height / 2)
  await page.mouse.down()
  await page.mouse.move(box.x + 20 + box.width * 0.3, box.y + box.height / 2, { steps: 5 })
  await page.mouse.up()
  await expect(toast).toHaveCount(1) // 30% springs back
  await page.mouse.move(box.x + 20, box.y + box.height / 2)
  await page.mouse.down()
  await page.mouse.move(box.x + 20 + box.width * 0.65, box.y + box.height / 2, { steps: 5 })
  await page.mouse.up()
  await expect(toast).toHaveCount(0)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the contact form still validates on the server and sends', async ({ page }) => {
    await page.goto('/en/contact-us')
    await page.getByLabel('Name').fill('Khalid')
    await page.getByLabel('Email').fill('khalid@@x')
    await page.getByLabel('Message type').selectOption('inquiry')
    await page.getByRole('textbox', { name: 'Message' }).fill('Is there a discount for schools?')
    await page.getByRole('button', { name: 'Send message' }).click()
    await expect(page.getByText('Invalid email address')).toBeVisible()
    await expect(page.getByLabel('Name')).toHaveValue('Khalid')
    await page.getByLabel('Email').fill('khalid@school.example')
    await page.getByRole('button', { name: 'Send message' }).click()
    await expect(page.getByText('Message sent successfully').first()).toBeVisible()
  })
})

test.describe('app shell', () => {
  test('the colour mode is kept in 7ll_theme and applied before the first paint', { tag: '@once' }, async ({ page }) => {
    await page.goto('/en')
    await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/)
    await page.getByRole('button', { name: /Colour mode/ }).click()
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
    await page.getByRole('button', { name: /Colour mode/ }).click()
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
    expect(await page.evaluate(() => localStorage.getItem('7ll_theme'))).toBe('dark')
    // The attribute is set by the inline head script: present at DOMContentLoaded, before hydration.
    await page.reload({ waitUntil: 'domcontentloaded' })
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark')
  })

  test('the service worker is served and takes control', { tag: '@once' }, async ({ page, request }) => {
    const sw = await request.get('/sw.js')
    expect(sw.status()).toBe(200)
    expect(sw.headers()['content-type']).toContain('javascript')
    await page.goto('/ar')
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)
    expect(new URL(scope).pathname).toBe('/')
  })

  test('scripts run only with the nonce of the response', { tag: '@once' }, async ({ request }) => {
    const res = await request.get('/ar')
    const csp = res.headers()['content-security-policy'] ?? ''
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce).toBeTruthy()
    const html = await res.text()
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
    expect(scripts.length).toBeGreaterThan(1)
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)
  })

  test('no page breaks its own Content-Security-Policy, forms and their schemas included', { tag: '@once' }, async ({ page }) => {
    // A refused eval or inline script is reported even when the page's code catches it (zod's
    // probe for `new Function` did so before it ran jitless in the browser).
    await page.addInitScript(() => {
      const seen: string[] = []
      Object.assign(window, { cspViolations: seen })
      document.addEventListener(
        'securitypolicyviolation',
        (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
        true,
      )
    })
    for (const path of [
      '/ar',
      '/en/packages',
      '/en/contact-us',
      '/ar/login',
      '/en/SignIn',
      '/ar/forget-password',
      '/ar/rates',
      '/en/verify-otp?purpose=activation&email=nobody%40school.example',
    ]) {
      await page.goto(path)
      await page.waitForLoadState('networkidle')
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), path).toEqual([])
    }
  })

  test('a guest page kept by the server still gets its own nonce, and its scripts run', { tag: '@once' }, async ({ request, page }) => {
    const answers = [await request.get('/en/about-us'), await request.get('/en/about-us')]
    // The second is served from the guest page cache (the first may be too, if another test rendered it).
    expect(answers[1]!.headers()['x-page-cache']).toBe('hit')
    const nonces: string[] = []
    for (const res of answers) {
      const nonce = /'nonce-([^']+)'/.exec(res.headers()['content-security-policy'] ?? '')?.[1] ?? ''
      const html = await res.text()
      const tags = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
      expect(tags.length).toBeGreaterThan(1)
      for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`)
      nonces.push(nonce)
    }
    expect(nonces[0]).not.toBe(nonces[1])

    const blocked: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) blocked.push(m.text())
    })
    await page.goto('/en/about-us')
    await page.goto('/en/about-us')
    await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true')
    expect(blocked).toEqual([])
  })

  test('content pages reach a guest without React, with the small enhancement script', { tag: '@once' }, async ({ page, request }) => {
    for (const path of [
      '/ar',
      '/en/packages',
      '/ar/common-questions',
      '/en/terms',
      '/en/contact-us',
      '/ar/login',
      '/ar/SignIn',
      '/en/forget-password',
      '/ar/rates',
    ]) {
      const html = await (await request.get(path)).text()
      expect(html, path).not.toContain('modulepreload')
      expect(html, path).not.toContain('__reactRouterContext')
      const modules = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1])
      expect(modules, path).toHaveLength(1)
      const script = await request.get(modules[0]!)
      expect(script.status()).toBe(200)
      expect(script.headers()['content-type']).toContain('javascript')
    }
    // A guest page that is not one of them (a step of a flow) is a React page.
    expect(await (await request.get('/en/verify-otp?purpose=activation&email=nobody%40school.example')).text()).toContain(
      '__reactRouterContext',
    )

    // Links work as plain links; the FAQ's answers open without script.
    await page.goto('/ar')
    await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true')
    await page.locator('header nav.main-nav a[href="/ar/common-questions"]').click()
    await expect(page).toHaveURL(/\/ar\/common-questions$/)
    const first = page.locator('details.faq-item').first()
    await first.locator('summary').click()
    await expect(first).toHaveAttribute('open', '')
  })

  test(
    'on a content page without React, a toast can be closed and the colour mode changed',
    { tag: '@once' },
    async ({ page, baseURL }) => {
      await signedInTeacher(page, 'en', 'toast')
      // Logging out by a plain form post: the next page is a document load with the flash cookie.
      // No app page stays open meanwhile (a request of its own would take the one-time message).
      await page.goto('about:blank')
      // The Origin a browser's form would send: a cookie-authenticated write without one is refused.
      const out = await page.request.post('/en/logout', { form: {}, maxRedirects: 0, headers: { origin: baseURL ?? '' } })
      expect(out.status()).toBe(302)
      await page.goto('/en')
      expect(await page.locator('script[type="module"]').count()).toBe(1)
      const toast = page.locator('.toast')
      await expect(toast).toContainText('Logout successful')
      await expect(page.locator('html')).toHaveAttribute('data-enhanced', 'true')
      await toast.getByRole('button').click()
      await expect(toast).toHaveCount(0)
      // The colour-mode button works here too, and names the mode it shows.
      const button = page.getByRole('button', { name: /Colour mode/ })
      await button.click()
      await expect(button).toHaveAttribute('aria-label', /Light/)
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
    },
  )

  test('a signed-in teacher never gets the guest page', async ({ page, request }) => {
    await request.get('/en')
    expect((await request.get('/en')).headers()['x-page-cache']).toBe('hit')
    await signedInTeacher(page, 'en', 'cache')
    const res = await page.request.get('/en')
    expect(res.headers()['x-page-cache']).toBeUndefined()
    expect(res.headers()['cache-control']).toBe('private, no-store')
    const html = await res.text()
    expect(html).toContain('href="/en/profile"')
    expect(html).toContain('__reactRouterContext')
  })

  test('built assets are cached for a year and served compressed', { tag: '@once' }, async ({ request, page }) => {
    // A React page (the content and form pages send guests one small module instead).
    await page.goto('/ar/verify-otp?purpose=activation&email=nobody%40school.example')
    const src = await page.locator('link[rel="modulepreload"]').first().getAttribute('href')
    expect(src).toMatch(/^\/assets\//)
    const res = await request.get(src!, { headers: { 'accept-encoding': 'br, gzip' } })
    expect(res.headers()['cache-control']).toContain('max-age=31536000')
    expect(res.headers()['content-encoding']).toMatch(/br|gzip/)
  })
})

test('no public page links to a missing page or file', { tag: '@once' }, async ({ page, request }) => {
  const seen = new Set<string>()
  for (const lang of langs) {
    for (const p of publicPaths) {
      await page.goto(pagePath(lang, p))
      const hrefs = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLAnchorElement | HTMLLinkElement>('a[href], link[href]')]
          .map((el) => el.getAttribute('href') ?? '')
          .filter((href) => href.startsWith('/') && !href.startsWith('//')),
      )
      for (const href of hrefs) seen.add(href.split('#')[0] ?? href)
    }
  }
  const manifest = (await (await request.get('/manifest.webmanifest')).json()) as { icons: Array<{ src: string }> }
  for (const icon of manifest.icons) seen.add(icon.src)
  expect(seen.size).toBeGreaterThan(15)
  const broken: string[] = []
  for (const href of seen) {
    const res = await request.get(href, { maxRedirects: 0 })
    if (res.status() >= 400) broken.push(`${href} → ${res.status()}`)
  }
  expect(broken).toEqual([])
})
