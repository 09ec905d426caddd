import { execFileSync } from 'node:child_process'
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import sharp from 'sharp'
import { expect, test, type Page } from './fixtures.ts'
import { axe, downloadFrom } from './helpers.ts'
import { subscribedTeacher } from './teacher.ts'

// The follow-up letters as a teacher meets them (issue 18), in both languages: she enters her
// school's details with a logo on her profile, uploads the sample, finds the steps on the report
// (the sample's Turki has exactly 3 unexcused days: the first warning; nobody reaches 5) and
// downloads the step-1 letters and their list. With SHOTS=<dir>: the profile's section, the
// report's block and the letter as PNG, for a person to look at.

const words = {
  ar: {
    schoolName: 'اسم المدرسة',
    office: 'إدارة التعليم',
    principal: 'اسم مدير المدرسة',
    counsellor: 'اسم الموجّه الطلابي',
    save: 'حفظ بيانات المدرسة',
    saved: 'حُفظت بيانات المدرسة.',
    removeLogo: 'إزالة الشعار',
    values: ['متوسطة عمر بن الخطاب', 'الإدارة العامة للتعليم بمنطقة الرياض', 'سعد بن محمد العتيبي', 'عمر بن صالح الحربي'],
    sample: 'تنزيل الملف النموذجي',
    submit: 'حلّل الملف',
    block: 'خطابات المتابعة حسب الخطوة',
    step1: 'الخطوة 1: إنذار أول بالغياب (من 3 أيام)',
    one: 'طالب واحد',
    none: 'لا يوجد طالب في هذه الخطوة',
    pdf: 'الخطابات PDF',
    excel: 'القائمة Excel',
    title: 'إنذار أول بالغياب',
    turki: 'تركي خالد عبدالعزيز الشهري',
  },
  en: {
    schoolName: 'School name',
    office: 'Education office',
    principal: 'Principal’s name',
    counsellor: 'Student counsellor’s name',
    save: 'Save the school details',
    saved: 'The school details are saved.',
    removeLogo: 'Remove the logo',
    values: ['Omar bin Al-Khattab Intermediate School', 'Riyadh Region Education', 'Saad Alotaibi', 'Omar Alharbi'],
    sample: 'Download the sample file',
    submit: 'Analyse the file',
    block: 'Follow-up letters by step',
    step1: 'Step 1: First absence warning (from 3 days)',
    one: '1 student',
    none: 'No student at this step',
    pdf: 'Letters (PDF)',
    excel: 'List (Excel)',
    title: 'First absence warning',
    turki: 'Turki Khalid Abdulaziz Al-Shehri',
  },
} as const

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

/** With SHOTS=1: a part of the page at 1280 and 390 px in both colour modes. */
async function shots(page: Page, selector: string, name: string) {
  if (!process.env.SHOTS) return
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.setViewportSize({ width, height: 900 })
      await page.locator(selector).screenshot({ path: `${process.env.SHOTS}/${name}-${scheme}-${width}.png` })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 900 })
}

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]
  test(`${lang}: school details on the profile, then the step-1 letters of an upload`, async ({ page }, testInfo) => {
    test.setTimeout(150_000)
    await subscribedTeacher(page, lang, `letters-${lang}`)

    // The school details, with a logo.
    await page.goto(`/${lang}/profile`)
    const [schoolName, office, principal, counsellor] = w.values
    await page.getByLabel(w.schoolName).fill(schoolName)
    await page.getByLabel(w.office).fill(office)
    await page.getByLabel(w.principal).fill(principal)
    await page.getByLabel(w.counsellor).fill(counsellor)
    const logo = testInfo.outputPath('logo.png')
    writeFileSync(
      logo,
      await sharp({ create: { width: 240, height: 160, channels: 3, background: '#0f5d52' } })
        .png()
        .toBuffer(),
    )
    await page.locator('#sc-logo').setInputFiles(logo)
    await page.getByRole('button', { name: w.save }).click()
    await expect(page.getByText(w.saved)).toBeVisible()
    await expect(page.getByLabel(w.schoolName)).toHaveValue(schoolName)
    await expect(page.locator('#school img.school-logo')).toBeVisible()
    await expect(page.getByLabel(w.removeLogo)).not.toBeChecked()
    expect(await axeBothModes(page)).toEqual([])
    await shots(page, '#school', `letters-profile-${lang}`)

    // The sample, uploaded; the report's block of steps.
    await page.goto(`/${lang}/analysis`)
    const samplePath = await downloadFrom(page, testInfo, () => page.getByRole('link', { name: w.sample }).click(), 'sample.xlsx')
    await page.locator('input[type="file"]').setInputFiles(samplePath)
    await page.getByRole('button', { name: w.submit }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`))
    const block = page.locator('section[aria-labelledby="step-documents-title"]')
    await expect(block.getByRole('heading', { name: w.block })).toBeVisible()
    const steps = block.locator('.step-documents-step')
    await expect(steps).toHaveCount(5)
    await expect(steps.nth(0).getByRole('heading')).toHaveText(w.step1)
    await expect(steps.nth(0)).toContainText(w.one)
    await expect(steps.nth(1)).toContainText(w.none)
    await expect(steps.nth(1).getByRole('button')).toHaveCount(0)
    expect(await axeBothModes(page)).toEqual([])
    await shots(page, 'section[aria-labelledby="step-documents-title"]', `letters-block-${lang}`)

    // The step-1 letters: one page, Turki's, with the title and the school's details.
    const pdfPath = await downloadFrom(
      page,
      testInfo,
      () => steps.nth(0).getByRole('button', { name: w.pdf }).click(),
      `letters-${lang}.pdf`,
    )
    const pdf = readFileSync(pdfPath)
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    const info = execFileSync('/usr/bin/pdfinfo', [pdfPath], { stdio: ['ignore', 'pipe', 'ignore'] }).toString()
    expect(/^Pages:\s+(\d+)/m.exec(info)?.[1]).toBe('1')
    const text = execFileSync('/usr/bin/pdftotext', ['-layout', pdfPath, '-']).toString('utf8')
    for (const expected of [w.title, schoolName, principal, counsellor]) expect(text).toContain(expected)
    expect(text).toContain(w.turki.split(' ')[0])
    if (process.env.SHOTS) {
      copyFileSync(pdfPath, `${process.env.SHOTS}/letters-${lang}.pdf`)
      execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '60', pdfPath, `${process.env.SHOTS}/letters-${lang}`])
    }

    // Their list.
    const xlsxPath = await downloadFrom(
      page,
      testInfo,
      () => steps.nth(0).getByRole('button', { name: w.excel }).click(),
      `letters-${lang}.xlsx`,
    )
    expect(readFileSync(xlsxPath).subarray(0, 2).toString('latin1')).toBe('PK')
  })
}
