// Decision 013: a React page arrives with its stylesheet inside, fetches only the small font files,
// paints, and only then loads React's modules and hydrates.
import { expect, test } from './fixtures.ts'
import { subscribedTeacher } from './teacher.ts'

test('a React page paints before its modules load, then hydrates and keeps its styles', { tag: '@once' }, async ({ page }) => {
  test.setTimeout(90_000)
  await subscribedTeacher(page, 'ar', 'paint')

  const html = await (await page.request.get('/ar/analysis')).text()
  const head = html.slice(0, html.indexOf('<body'))
  expect(head).toMatch(/<style nonce="[^"]+" data-href="\/assets\/app-[\w-]+\.css">[^<]*@font-face[^<]*plex-core-400/)
  expect(head).not.toMatch(/<link rel="stylesheet" href="\/assets\/app-/)
  expect(head).not.toContain('modulepreload')
  expect(html).toMatch(/<script nonce="[^"]+" type="text\/plain" id="app-modules" data-preload="\/assets\/entry\.client-/)

  await page.goto('/ar/analysis')
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
  const timing = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
    return {
      fcp,
      modules: resources.filter((r) => /\/assets\/[^/]+\.js$/.test(r.name)).map((r) => r.startTime),
      fonts: resources.filter((r) => r.name.endsWith('.woff2')).map((r) => new URL(r.name).pathname),
      // A stylesheet that holds the paint: fetched before it, or marked render-blocking. The
      // next pages' stylesheets, prefetched once the page is up (the signed-in teacher's tools
      // in the header), do not.
      stylesheets: resources
        .filter((r) => r.name.endsWith('.css'))
        .filter(
          (r) =>
            r.startTime < fcp || (r as PerformanceResourceTiming & { renderBlockingStatus?: string }).renderBlockingStatus === 'blocking',
        )
        .map((r) => new URL(r.name).pathname),
    }
  })
  expect(timing.fcp).toBeGreaterThan(0)
  expect(timing.modules.length).toBeGreaterThan(5)
  for (const start of timing.modules) expect(start).toBeGreaterThanOrEqual(timing.fcp)
  expect(timing.stylesheets).toEqual([])
  // An Arabic page needs only the core files of the weights it uses, nothing of Fontsource's.
  expect(timing.fonts.length).toBeGreaterThan(0)
  for (const font of timing.fonts) expect(font).toMatch(/\/assets\/plex-core-\d00-[\w-]+\.woff2$/)

  // Hydrated: a link in the header moves inside the app without loading a document, and the
  // stylesheet written into the first document still styles the next page.
  await page.evaluate(() => Object.assign(window, { samePage: true }))
  await page.locator('header nav.main-nav a[href="/ar/packages"]').click()
  await expect(page).toHaveURL(/\/ar\/packages$/)
  await expect(page.locator('main h1')).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
  expect(await page.locator('head style[data-href]').evaluate((style) => style.textContent?.length ?? 0)).toBeGreaterThan(10_000)
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('IBM Plex Sans Arabic')
  expect(await page.evaluate(() => getComputedStyle(document.querySelector('header')!).position)).not.toBe('static')
})

test.describe(() => {
  // The service worker would answer the held modules from its cache, past the page's routes.
  test.use({ serviceWorkers: 'block' })

  test('the exam editor keeps what was typed before its script took over', { tag: '@once' }, async ({ page }) => {
    test.setTimeout(90_000)
    await subscribedTeacher(page, 'en', 'early')
    // React's modules are held back until the title has been typed, as on a slow phone.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
      await held
      await route.continue()
    })
    await page.goto('/en/exams-test', { waitUntil: 'domcontentloaded' })
    await page.getByLabel('Test title').fill('Typed before React')
    await page.getByLabel('Subject').fill('Science')
    expect(await page.locator('html').getAttribute('data-hydrated')).toBeNull()
    release()
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
    await page.unroute(/\/assets\/[^/]+\.js$/)

    // A change elsewhere renders the editor again: the typed text stays, in the field and the draft.
    await page.getByRole('button', { name: 'Add: True or false' }).click()
    const card = page.locator('.question-card').first()
    await card.getByLabel('Statement').fill('Water boils at 100 °C at sea level.')
    await card.getByLabel('True', { exact: true }).check()
    await expect(page.getByLabel('Test title')).toHaveValue('Typed before React')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page).toHaveURL(/exams-test\?id=/)
    await page.reload()
    await expect(page.getByLabel('Test title')).toHaveValue('Typed before React')
    await expect(page.getByLabel('Subject')).toHaveValue('Science')
  })

  test('a form sent before React takes over is sent once, by the browser; after, React sends it', { tag: '@once' }, async ({ page }) => {
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
      await held
      await route.continue()
    })
    const path = '/en/verify-otp?purpose=activation&email=nobody%40school.example'
    await page.goto(path, { waitUntil: 'domcontentloaded' })
    // A listener on the document stands for React's: the submit must not reach it yet.
    await page.evaluate(() => document.addEventListener('submit', () => sessionStorage.setItem('reached', 'yes'), true))
    const posts: string[] = []
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(r.resourceType())
    })
    await page.getByLabel('Verification code').fill('123456')
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page.getByText('The code is incorrect')).toBeVisible()
    expect(posts).toEqual(['document'])
    expect(await page.evaluate(() => sessionStorage.getItem('reached'))).toBeNull()

    release()
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
    await page.unroute(/\/assets\/[^/]+\.js$/)
    posts.length = 0
    await page.evaluate(() => document.addEventListener('submit', () => sessionStorage.setItem('reached', 'yes'), true))
    await page.getByLabel('Verification code').fill('654321')
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect.poll(() => posts.length).toBe(1)
    expect(posts).toEqual(['fetch'])
    expect(await page.evaluate(() => sessionStorage.getItem('reached'))).toBe('yes')
  })
})
