import { execFileSync } from 'node:child_process'
import AxeBuilder from '@axe-core/playwright'
import sharp from 'sharp'
import { expect, test, type Page } from './fixtures.ts'
import { signedInTeacher, subscribedTeacher } from './teacher.ts'

// The tests builder in a real browser, in both languages: a subscriber builds a test with every
// question type and an image, edits, reorders and deletes questions, saves, previews the print,
// and downloads the test, its answer key and two versions as PDF (read back with pdftotext).

const words = {
  ar: {
    myTests: 'اختباراتي',
    newTest: 'اختبار جديد',
    title: 'عنوان الاختبار',
    school: 'اسم المدرسة',
    subject: 'المادة',
    grade: 'الصف',
    date: 'التاريخ',
    duration: 'الزمن (بالدقائق)',
    info: 'معلومات إضافية (تعليمات)',
    add: (type: string) => `إضافة: ${type}`,
    types: {
      mc: 'اختيار من متعدد',
      cb: 'اختيار إجابات متعددة',
      tf: 'صح أو خطأ',
      essay: 'سؤال مقالي',
      matching: 'توصيل',
      blank: 'أكمل الفراغ',
    },
    questionText: 'نص السؤال',
    statement: 'العبارة',
    sentence: 'الجملة مع الفراغات',
    option: (letter: string) => `الإجابة ${letter}`,
    correctOf: (letter: string) => `الإجابة ${letter} صحيحة`,
    letters: ['أ', 'ب', 'ج', 'د'],
    isTrue: 'صح',
    lines: 'أسطر الإجابة',
    left: (n: number) => `العمود الأول، العنصر ${n}`,
    right: 'ما يقابله في العمود الثاني',
    blank: (n: number) => `الفراغ ${n}`,
    image: 'صورة (اختيارية)',
    save: 'حفظ',
    saved: 'حُفظ الاختبار',
    mcCorrect: 'اختر الإجابة الصحيحة',
    heading: (n: number, type: string) => `السؤال ${n}: ${type}`,
    move: (n: number) => `ترتيب السؤال ${n}`,
    duplicate: 'نسخ',
    delete: 'حذف',
    deleteConfirm: 'حذف السؤال',
    deleteText: 'هل أنت متأكد؟ لا يمكن استرجاع هذا السؤال.',
    leaveTitle: 'المغادرة دون حفظ؟',
    stay: 'البقاء',
    printPreview: 'معاينة الطباعة',
    answerKey: 'نموذج الإجابة',
    versions: 'نماذج مخلوطة مع نموذج إجابة لكل منها',
    download: 'تنزيل PDF',
    test: {
      title: 'اختبار العلوم للفترة الأولى',
      school: 'مدرسة الأندلس الابتدائية',
      subject: 'العلوم',
      grade: 'الصف الخامس',
      info: 'أجب عن جميع الأسئلة الآتية.',
      mc: ['أي الكواكب أقرب إلى الشمس؟', 'عطارد', 'الزهرة', 'الأرض', 'المريخ'],
      cb: ['اختر الثدييات:', 'الحوت', 'النسر', 'الجمل'],
      tf: 'الماء يغلي عند 100 درجة مئوية.',
      essay: 'صف الشكل المرسوم أمامك.',
      matching: ['صل كل عضو بوظيفته:', 'القلب', 'ضخ الدم', 'الرئتان', 'تبادل الغازات', 'المعدة', 'هضم الطعام'],
      blank: ['عاصمة المملكة هي ___ وأكبر موانئها ___.', 'الرياض', 'جدة'],
      ministry: 'وزارة التعليم',
      versionA: 'النموذج (أ)',
      versionB: 'النموذج (ب)',
    },
  },
  en: {
    myTests: 'My tests',
    newTest: 'New test',
    title: 'Test title',
    school: 'School name',
    subject: 'Subject',
    grade: 'Grade',
    date: 'Date',
    duration: 'Duration (minutes)',
    info: 'Additional info (instructions)',
    add: (type: string) => `Add: ${type}`,
    types: {
      mc: 'Multiple choice',
      cb: 'Checkboxes',
      tf: 'True or false',
      essay: 'Essay',
      matching: 'Matching',
      blank: 'Fill in the blank',
    },
    questionText: 'Question text',
    statement: 'Statement',
    sentence: 'Sentence with blanks',
    option: (letter: string) => `Answer ${letter}`,
    correctOf: (letter: string) => `Answer ${letter} is correct`,
    letters: ['A', 'B', 'C', 'D'],
    isTrue: 'True',
    lines: 'Answer lines',
    left: (n: number) => `First column, item ${n}`,
    right: 'Its match in the second column',
    blank: (n: number) => `Blank ${n}`,
    image: 'Image (optional)',
    save: 'Save',
    saved: 'Data saved successfully',
    mcCorrect: 'Choose the correct answer',
    heading: (n: number, type: string) => `Question ${n}: ${type}`,
    move: (n: number) => `Reorder question ${n}`,
    duplicate: 'Duplicate',
    delete: 'Delete',
    deleteConfirm: 'Delete the question',
    deleteText: 'Are you sure? This question cannot be recovered.',
    leaveTitle: 'Leave without saving?',
    stay: 'Stay',
    printPreview: 'Print preview',
    answerKey: 'Answer key',
    versions: 'Shuffled versions with their keys',
    download: 'Download PDF',
    test: {
      title: 'Science test, first term',
      school: 'Al-Andalus Primary School',
      subject: 'Science',
      grade: 'Grade 5',
      info: 'Answer all the questions.',
      mc: ['Which planet is closest to the Sun?', 'Mercury', 'Venus', 'Earth', 'Mars'],
      cb: ['Choose the mammals:', 'Whale', 'Eagle', 'Camel'],
      tf: 'Water boils at 100 °C at sea level.',
      essay: 'Describe the figure.',
      matching: ['Match each organ with its job:', 'Heart', 'Pumps blood', 'Lungs', 'Exchange gases', 'Stomach', 'Digests food'],
      blank: ['The capital of Saudi Arabia is ___ and its largest port is ___.', 'Riyadh', 'Jeddah'],
      ministry: 'Ministry of Education',
      versionA: 'Version A',
      versionB: 'Version B',
    },
  },
} as const

type Words = (typeof words)[keyof typeof words]

const card = (page: Page, n: number) => page.locator('.question-card').nth(n - 1)

/**
 * axe on the page, in both colour modes: no serious or critical violations. Toasts are closed
 * first: the shared toaster's list (li with role="status") is the UI kit's, reported separately.
 */
async function expectAccessible(page: Page) {
  while ((await page.locator('.toast-close').count()) > 0) await page.locator('.toast-close').first().click()
  await expect(page.locator('.toast')).toHaveCount(0)
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze()
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(
      serious.map(
        (v) =>
          `${scheme} ${v.id}: ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
      ),
    ).toEqual([])
  }
  await page.emulateMedia({ colorScheme: null })
}

async function headings(page: Page) {
  return page.locator('.question-card h3').allTextContents()
}

/** Downloads the file behind a link and returns its text as pdftotext reads it. */
async function downloadText(page: Page, link: ReturnType<Page['getByRole']>, name: string) {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
  const file = test.info().outputPath(name)
  await download.saveAs(file)
  const pdf = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[\u202A-\u202E]/g, '')
  execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '2', file, file.replace(/\.pdf$/, '')])
  return { text: pdf, suggested: download.suggestedFilename() }
}

async function addQuestions(page: Page, w: Words) {
  const q = w.test
  // Multiple choice: four answers, the first one correct (chosen after a failed save, below).
  await page.getByRole('button', { name: w.add(w.types.mc) }).click()
  await card(page, 1).getByLabel(w.questionText).fill(q.mc[0])
  for (let i = 0; i < 4; i++)
    await card(page, 1)
      .getByLabel(w.option(w.letters[i]!), { exact: true })
      .fill(q.mc[i + 1]!)

  await page.getByRole('button', { name: w.add(w.types.cb) }).click()
  await card(page, 2).getByLabel(w.questionText).fill(q.cb[0])
  for (let i = 0; i < 3; i++)
    await card(page, 2)
      .getByLabel(w.option(w.letters[i]!), { exact: true })
      .fill(q.cb[i + 1]!)
  await card(page, 2).getByLabel(w.correctOf(w.letters[0]!)).check()
  await card(page, 2).getByLabel(w.correctOf(w.letters[2]!)).check()

  await page.getByRole('button', { name: w.add(w.types.tf) }).click()
  await card(page, 3).getByLabel(w.statement).fill(q.tf)
  await card(page, 3).getByLabel(w.isTrue, { exact: true }).check()

  await page.getByRole('button', { name: w.add(w.types.essay) }).click()
  await card(page, 4).getByLabel(w.questionText).fill(q.essay)
  await card(page, 4).getByLabel(w.lines).fill('4')
  const figure = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#7aa5c9' } })
    .composite([
      {
        input: Buffer.from(
          '<svg width="600" height="400"><circle cx="300" cy="200" r="140" fill="none" stroke="black" stroke-width="8"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer()
  await card(page, 4).getByLabel(w.image).setInputFiles({ name: 'figure.png', mimeType: 'image/png', buffer: figure })
  await expect(card(page, 4).locator('.question-image img')).toBeVisible()
  // The stored, re-encoded image loads at its own size (polled: it may still be arriving).
  await expect
    .poll(() =>
      card(page, 4)
        .locator('.question-image img')
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBe(600)

  await page.getByRole('button', { name: w.add(w.types.matching) }).click()
  await card(page, 5).getByLabel(w.questionText).fill(q.matching[0])
  for (let i = 0; i < 3; i++) {
    await card(page, 5)
      .getByLabel(w.left(i + 1))
      .fill(q.matching[1 + i * 2]!)
    await card(page, 5)
      .getByLabel(w.right)
      .nth(i)
      .fill(q.matching[2 + i * 2]!)
  }

  await page.getByRole('button', { name: w.add(w.types.blank) }).click()
  await card(page, 6).getByLabel(w.sentence).fill(q.blank[0])
  await card(page, 6).getByLabel(w.blank(1)).fill(q.blank[1])
  await card(page, 6).getByLabel(w.blank(2)).fill(q.blank[2])
}

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]
  test(`${lang}: build a test with every question type and an image, edit, reorder, delete, save, preview and download the test, its key and two versions`, async ({
    page,
  }) => {
    test.setTimeout(240_000)
    await subscribedTeacher(page, lang, 'exams')

    await page.goto(`/${lang}/exams`)
    await expect(page.getByRole('heading', { level: 1, name: w.myTests })).toBeVisible()
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0)
    await page.getByRole('link', { name: w.newTest }).first().click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/exams-test$`))

    await page.getByLabel(w.title).fill(w.test.title)
    await page.getByLabel(w.school).fill(w.test.school)
    await page.getByLabel(w.subject, { exact: true }).fill(w.test.subject)
    await page.getByLabel(w.grade, { exact: true }).fill(w.test.grade)
    await page.getByLabel(w.date, { exact: true }).fill('22/11/2026')
    await expect(page.getByText(lang === 'ar' ? /جمادى الآخرة 1448/ : /Jumada II 1448/)).toBeVisible()
    await page.getByLabel(w.duration).fill('45')
    await page.getByLabel(w.info).fill(w.test.info)

    await addQuestions(page, w)
    expect(await headings(page)).toEqual([
      w.heading(1, w.types.mc),
      w.heading(2, w.types.cb),
      w.heading(3, w.types.tf),
      w.heading(4, w.types.essay),
      w.heading(5, w.types.matching),
      w.heading(6, w.types.blank),
    ])

    // Saving with the multiple-choice answer not chosen: refused beside it, the focus sent there.
    await page.getByRole('button', { name: w.save, exact: true }).click()
    await expect(card(page, 1).getByText(w.mcCorrect)).toBeVisible()
    await expect(card(page, 1).getByLabel(w.correctOf(w.letters[0]!))).toBeFocused()
    await card(page, 1).getByLabel(w.correctOf(w.letters[0]!)).check()
    await expect(card(page, 1).getByText(w.mcCorrect)).toHaveCount(0)

    await page.getByRole('button', { name: w.save, exact: true }).click()
    await expect(page.getByText(w.saved).first()).toBeVisible()

    // Reorder with the keyboard at once, while the new test's address is still loading: the essay
    // (4) goes up to 3, and its handle keeps the focus. The editor stays the same one when the
    // address arrives, so the move is still there after it.
    await page.getByRole('button', { name: w.move(4) }).focus()
    await page.keyboard.press('ArrowUp')
    await expect(page.getByRole('button', { name: w.move(3) })).toBeFocused()
    await expect(page).toHaveURL(new RegExp(`/${lang}/exams-test\\?id=[0-9a-f-]{36}$`))
    const examUrl = page.url()
    await page.waitForLoadState('networkidle')
    expect((await headings(page)).slice(2, 4)).toEqual([w.heading(3, w.types.essay), w.heading(4, w.types.tf)])
    // Reorder by dragging: the fill-in-the-blank question (6) onto the first card.
    await page.getByRole('button', { name: w.move(6) }).dragTo(card(page, 1))
    expect(await headings(page)).toEqual([
      w.heading(1, w.types.blank),
      w.heading(2, w.types.mc),
      w.heading(3, w.types.cb),
      w.heading(4, w.types.essay),
      w.heading(5, w.types.tf),
      w.heading(6, w.types.matching),
    ])

    // Duplicate the matching question, then delete the copy, confirming in the dialog.
    await card(page, 6).getByRole('button', { name: w.duplicate, exact: true }).click()
    await expect(page.locator('.question-card')).toHaveCount(7)
    await card(page, 7).getByRole('button', { name: w.delete, exact: true }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByText(w.deleteText)).toBeVisible()
    await dialog.getByRole('button', { name: w.deleteConfirm }).click()
    await expect(page.locator('.question-card')).toHaveCount(6)

    // Leaving with unsaved changes asks first; stay, and save.
    await page.getByRole('link', { name: w.myTests }).first().click()
    await expect(page.getByRole('dialog').getByText(w.leaveTitle)).toBeVisible()
    await page.getByRole('dialog').getByRole('button', { name: w.stay }).click()
    await expect(page).toHaveURL(examUrl)
    await page.getByRole('button', { name: w.save, exact: true }).click()
    await expect(page.getByText(w.saved).first()).toBeVisible()

    await page.screenshot({ path: test.info().outputPath(`editor-${lang}.png`), fullPage: true })
    await expectAccessible(page)

    // Reloaded, the test is as saved: the new order and the image.
    await page.reload()
    expect((await headings(page))[0]).toBe(w.heading(1, w.types.blank))
    await expect(card(page, 4).locator('.question-image img')).toBeVisible()

    // How much of the whole-test limits the test uses, in the page's language.
    await expect(page.getByTestId('exam-size-characters')).toContainText(/30[,٬]000/)
    await expect(page.getByTestId('exam-size-characters')).toHaveAttribute('data-state', 'ok')

    // Print preview: the PDF's own pages.
    await page.getByRole('link', { name: w.printPreview }).click()
    await expect(page).toHaveURL(/\/exams\/[0-9a-f-]{36}\/print$/)
    const sheets = page.locator('.exam-sheet img')
    await expect(sheets.first()).toBeVisible()
    await expect.poll(() => sheets.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    await page
      .locator('.exam-sheet')
      .first()
      .screenshot({ path: test.info().outputPath(`preview-${lang}.png`) })
    await expectAccessible(page)

    // The browser's own print of this page: one A4 sheet per page of the PDF, nothing else.
    const sheetCount = await page.locator('.exam-sheet').count()
    const printed = test.info().outputPath(`browser-print-${lang}.pdf`)
    await page.emulateMedia({ media: 'print' })
    await page.pdf({ path: printed, preferCSSPageSize: true, printBackground: true })
    await page.emulateMedia({ media: 'screen' })
    const info = execFileSync('pdfinfo', [printed], { encoding: 'utf8' })
    expect(Number(/Pages:\s+(\d+)/.exec(info)?.[1])).toBe(sheetCount)
    expect(info).toMatch(/Page size:\s+59[45]\.\d+ x 84[12]\.\d+ pts \(A4\)/)
    execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', printed, printed.replace(/\.pdf$/, '')])

    const testPdf = await downloadText(page, page.getByRole('link', { name: w.download }), `test-${lang}.pdf`)
    expect(testPdf.suggested).toBe(`${w.test.title.replace(/,/g, ' ').replace(/\s+/g, ' ')}.pdf`)
    for (const text of [w.test.ministry, w.test.school, w.test.mc[0], w.test.matching[0], w.test.mc[1]])
      expect(testPdf.text).toContain(text)
    expect(testPdf.text).not.toContain(w.test.blank[1])

    await page.getByLabel(w.answerKey).check()
    await expect(page).toHaveURL(/show=key/)
    await expect.poll(() => sheets.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    const keyPdf = await downloadText(page, page.getByRole('link', { name: w.download }), `key-${lang}.pdf`)
    expect(keyPdf.text).toContain(w.answerKey)
    expect(keyPdf.text).toContain(w.test.blank[1])
    expect(keyPdf.text).toContain(w.test.blank[2])

    await page.getByLabel(w.versions).check()
    await expect(page).toHaveURL(/show=versions&count=2/)
    const versionsPdf = await downloadText(page, page.getByRole('link', { name: w.download }), `versions-${lang}.pdf`)
    for (const text of [w.test.versionA, w.test.versionB, w.answerKey]) expect(versionsPdf.text).toContain(text)
    await page.screenshot({ path: test.info().outputPath(`preview-versions-${lang}.png`), fullPage: false })

    // The list: the test with its six questions. Its Print link is not prefetched (each print
    // costs a render): in view and hovered, it asks for nothing.
    const printRequests: string[] = []
    const onRequest = (r: { url: () => string }) => {
      if (/\/print(?:\.data)?(?:\?|$)/.test(r.url())) printRequests.push(r.url())
    }
    page.on('request', onRequest)
    await page.goto(`/${lang}/exams`)
    const row = page.locator('tbody tr').first()
    await expect(row.getByRole('rowheader')).toHaveText(w.test.title)
    await expect(row.locator('td.num').first()).toHaveText('6')
    await row.locator('a[href$="/print"]').hover()
    await page.waitForTimeout(1500)
    page.off('request', onRequest)
    expect(printRequests).toEqual([])
    await expectAccessible(page)
  })
}

test('another teacher’s test is not found, and the list starts empty', async ({ page }) => {
  test.setTimeout(90_000)
  await subscribedTeacher(page, 'en', 'exams-other')
  const res = await page.goto('/en/exams-test?id=6f0e0d0c-0000-4000-8000-000000000001')
  expect(res?.status()).toBe(404)
  expect((await page.request.get('/en/exams/6f0e0d0c-0000-4000-8000-000000000001/pdf')).status()).toBe(404)
  await page.goto('/en/exams')
  await expect(page.getByText('You have not built a test yet.')).toBeVisible()
})

test('a teacher without a subscription is sent to the packages', async ({ page }) => {
  await signedInTeacher(page, 'ar', 'exams-guest')
  await page.goto('/ar/exams')
  await expect(page).toHaveURL(/\/ar\/packages$/)
})
