import * as XLSX from '@e965/xlsx'
import { expect, test, type Page } from './fixtures.ts'
import { axe } from './helpers.ts'
import { subscribedTeacher } from './teacher.ts'

// The follow-up of issue 18 as a teacher meets it, in both languages: the ladder on the settings
// page (a wrong step refused before it is sent), two uploads a month apart of one class, each
// student's step on the report, then the register: record one document as signed and one as
// declined, and see the students owed a document fall. Worked out by hand on the standard ladder
// (3, 5, 10, 15, 25 unexcused days): October — سارة 3 (step 1), نورة 2 (none), ريم 5 (step 2),
// هند 25 (step 5); November — سارة 5 (step 2), نورة 2, ريم 6 in classroom 2 (step 2), هند gone.
// After November three students are owed a document (سارة 2, ريم 2, هند 5, as last seen).

const words = {
  ar: {
    submit: 'حلّل الملف',
    ladderTitle: 'سلّم الإجراءات على الغياب بدون عذر',
    source: 'الخطوات الافتراضية مأخوذة مما نُشر عن قواعد وزارة التعليم، وقواعد مدرستك هي المعتمدة',
    secondDays: 'من عدد أيام الغياب بدون عذر',
    saveSteps: 'حفظ الخطوات',
    ascending: 'يجب أن تكون أيام كل خطوة أكثر من أيام الخطوة التي قبلها.',
    stepsTitle: 'خطوات المتابعة',
    firstWarning: 'إنذار أول',
    secondWarning: 'إنذار ثانٍ',
    owed3: '3 طلاب مستحق لهم مستند.',
    owed2: 'طالبان مستحق لهما مستند.',
    owed1: 'طالب واحد مستحق له مستند.',
    record: 'تسجيل إصدار «إنذار ثانٍ»',
    status: 'الحالة',
    signed: 'وقّعه ولي الأمر',
    declined: 'امتنع ولي الأمر عن التوقيع',
    submitRecord: 'تسجيل المستند',
    nav: 'سجل المتابعة',
  },
  en: {
    submit: 'Analyse the file',
    ladderTitle: 'Steps on unexcused absence',
    source: 'The default steps come from reports of the Ministry of Education',
    secondDays: 'From unexcused days',
    saveSteps: 'Save the steps',
    ascending: "Each step's days must be more than the step before.",
    stepsTitle: 'Follow-up steps',
    firstWarning: 'First warning',
    secondWarning: 'Second warning',
    owed3: '3 students are owed a document.',
    owed2: '2 students are owed a document.',
    owed1: '1 student is owed a document.',
    record: 'Record “Second warning” as issued',
    status: 'Status',
    signed: 'Signed by the guardian',
    declined: 'Guardian declined to sign',
    submitRecord: 'Record the document',
    nav: 'Follow-up',
  },
} as const

const grade = 'الأول المتوسط'
const uploads = [
  {
    name: 'october.xlsx',
    days: 30,
    students: [
      ['سارة علي محمد', '1100000001', '1', 3],
      ['نورة سعد خالد', '1100000002', '1', 2],
      ['ريم فهد ناصر', '1100000003', '1', 5],
      ['هند عمر سالم', '', '1', 25],
    ],
  },
  {
    name: 'november.xlsx',
    days: 50,
    students: [
      ['سارة علي محمد', '1100000001', '1', 5],
      ['نورة سعد خالد', '1100000002', '1', 2],
      ['ريم فهد ناصر', '1100000003', '2', 6],
    ],
  },
] as const

/** A daily absence workbook: school days (Sunday–Thursday) from 7 September 2025, the first `unexcused` absent without excuse. */
function workbook(upload: (typeof uploads)[number]): Buffer {
  const days: Date[] = []
  for (const day = new Date(Date.UTC(2025, 8, 7)); days.length < upload.days; day.setUTCDate(day.getUTCDate() + 1))
    if (day.getUTCDay() <= 4) days.push(new Date(day))
  const rows: (string | Date)[][] = [['اسم الطالب', 'رقم الهوية', 'الصف', 'الفصل', 'التاريخ', 'الحالة']]
  for (const [name, id, classroom, unexcused] of upload.students)
    days.forEach((day, i) => rows.push([name, id, grade, classroom, day, i < unexcused ? 'غياب بدون عذر' : 'حاضر']))
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows, { cellDates: true }), 'الغياب')
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer
}

/** Axe's serious and critical findings on the page as it is, in both colour modes. */
async function axeBothModes(page: Page): Promise<string[]> {
  const found: string[] = []
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const results = await axe(page).analyze()
    for (const v of results.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
      found.push(`${scheme} ${page.url()} ${v.id}: ${v.nodes[0]?.target.join(' ')}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  return found
}

/** With SHOTS=<folder>: the page at 1280 and 390 px in both colour modes, for a person to look at. */
async function shots(page: Page, name: string, part?: string) {
  if (!process.env.SHOTS) return
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.setViewportSize({ width, height: 900 })
      const path = `${process.env.SHOTS}/${name}-${scheme}-${width}.png`
      // A long page (the report) is looked at by its part.
      await (part ? page.locator(part).screenshot({ path }) : page.screenshot({ path, fullPage: true }))
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 900 })
}

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]
  test(`${lang}: the ladder, two uploads a month apart, each student's step, and the register's outstanding falling`, async ({ page }) => {
    test.setTimeout(180_000)
    await subscribedTeacher(page, lang, `follow-up-${lang}`)

    // The ladder: the note on its source; a second step below the first is refused in the browser.
    await page.goto(`/${lang}/absence-settings`)
    const ladder = page.locator('article[aria-labelledby="ladder-title"]')
    await expect(ladder.getByRole('heading', { name: w.ladderTitle })).toBeVisible()
    await expect(ladder.getByText(w.source)).toBeVisible()
    await page.locator('#ladder-days-1').fill('2')
    await ladder.getByRole('button', { name: w.saveSteps }).click()
    await expect(ladder.getByText(w.ascending)).toBeVisible()
    await expect(page.locator('#ladder-days-1')).toHaveAttribute('aria-invalid', 'true')
    expect(await axeBothModes(page)).toEqual([])
    await shots(page, `follow-up-settings-${lang}`, 'article[aria-labelledby="ladder-title"]')

    // Two uploads a month apart.
    for (const upload of uploads) {
      await page.goto(`/${lang}/analysis`)
      await page.locator('input[type="file"]').setInputFiles({
        name: upload.name,
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: workbook(upload),
      })
      await page.getByRole('button', { name: w.submit }).click()
      await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`))
    }

    // The November report: سارة and ريم at the second warning, one at a step per classroom.
    const steps = page.locator('section[aria-labelledby="steps-title"]')
    await expect(steps.getByRole('heading', { name: w.stepsTitle })).toBeVisible()
    const stepRows = steps.locator('tbody tr')
    await expect(stepRows).toHaveCount(3)
    await expect(stepRows.nth(0).locator('td').nth(1)).toHaveText('1')
    await expect(stepRows.nth(2).locator('td').last()).toHaveText('2')
    const warned = page.locator('section[aria-labelledby="warnings-title"] tbody tr')
    await expect(warned.filter({ hasText: 'سارة علي محمد' })).toContainText(w.secondWarning)
    await expect(warned.filter({ hasText: 'ريم فهد ناصر' })).toContainText(w.secondWarning)
    await shots(page, `follow-up-report-steps-${lang}`, 'section[aria-labelledby="steps-title"]')
    await shots(page, `follow-up-report-warned-${lang}`, 'section[aria-labelledby="warnings-title"]')

    // The register, from the navigation: three owed a document.
    await page.getByRole('navigation').first().getByRole('link', { name: w.nav }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/follow-up`))
    const owed = page.locator('section[aria-labelledby="register-outstanding"]')
    await expect(owed.getByText(w.owed3)).toBeVisible()
    expect(await axeBothModes(page)).toEqual([])

    const record = async (name: string, status: string) => {
      const card = owed.locator('li').filter({ hasText: name })
      await card.getByText(w.record).click()
      await card.getByLabel(w.status).selectOption({ label: status })
      await card.getByRole('button', { name: w.submitRecord }).click()
    }
    await record('سارة علي محمد', w.signed)
    await expect(owed.getByText(w.owed2)).toBeVisible()
    await record('ريم فهد ناصر', w.declined)
    await expect(owed.getByText(w.owed1)).toBeVisible()
    await expect(owed.locator('li h3')).toHaveText(['هند عمر سالم'])

    // Issued: one signed, one declined, each where the student was when it was issued (ريم in classroom 2).
    const issued = page.locator('section[aria-labelledby="register-issued"]')
    await expect(issued.locator('li').filter({ hasText: 'سارة علي محمد' })).toContainText(w.signed)
    await expect(issued.locator('li').filter({ hasText: 'ريم فهد ناصر' })).toContainText(w.declined)
    const classrooms = page.locator('section[aria-labelledby="register-classrooms"] tbody tr')
    await expect(classrooms.nth(0).locator('td')).toHaveText(['2', '1', '1'])
    await expect(classrooms.nth(1).locator('td')).toHaveText(['1', '1', '0'])
    expect(await axeBothModes(page)).toEqual([])
    await shots(page, `follow-up-register-${lang}`)
  })
}
