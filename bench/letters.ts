// The follow-up letters (issue 18): one student's letter, and 200 letters in one PDF, in Arabic
// with a logo, rendered in the render processes as a teacher's download is; a different
// document each run (the issue day moves), so the render cache cannot answer from the last one.
import sharp from 'sharp'
import { renderStepLettersPdf, type StepLettersPdfOptions } from '#app/features/follow-up/index.server.ts'
import { closePdfPool } from '#app/platform/pdf-pool.server.ts'
import { timeRunsAsync } from './measure.ts'

const first = ['محمد', 'عبدالله', 'فهد', 'تركي', 'سلطان', 'نواف', 'فيصل', 'راكان', 'يزيد', 'ماجد']
const families = ['القحطاني', 'العتيبي', 'الشهري', 'الغامدي', 'الزهراني', 'الدوسري', 'المطيري', 'الحربي']

/** `count` students at the first warning, each with 3 or 4 dated days of unexcused absence. */
function students(count: number): StepLettersPdfOptions['students'] {
  return Array.from({ length: count }, (_unused, i) => {
    const days = 3 + (i % 2)
    return {
      name: `${first[i % first.length]} ${first[(i + 3) % first.length]} ${families[i % families.length]}`,
      studentId: String(1_100_000_000 + i),
      grade: i % 3 === 0 ? 'الأول المتوسط' : i % 3 === 1 ? 'الثاني المتوسط' : 'الثالث المتوسط',
      classroom: String(1 + (i % 4)),
      unexcused: days,
      unexcusedDays: Array.from({ length: days }, (_, d) => {
        const date = new Date(Date.UTC(2025, 8, 7 + d * 2))
        return { date: date.toISOString().slice(0, 10), hijri: '', weekday: date.getUTCDay() }
      }),
    }
  })
}

export async function benchLetters() {
  const logo = new Uint8Array(
    await sharp({ create: { width: 400, height: 240, channels: 3, background: '#0f5d52' } })
      .webp()
      .toBuffer(),
  )
  const school = {
    schoolName: 'متوسطة عمر بن الخطاب',
    educationOffice: 'الإدارة العامة للتعليم بمنطقة الرياض',
    principalName: 'سعد بن محمد العتيبي',
    counsellorName: 'عمر بن صالح الحربي',
    students: 'boys' as const,
  }
  const time = async (count: number, runs: number) => {
    const list = students(count)
    let bytes = 0
    const { medianMs, firstMs } = await timeRunsAsync(async (run) => {
      const pdf = await renderStepLettersPdf({
        lang: 'ar',
        document: 'firstWarning',
        students: list,
        school,
        logo,
        issuedOn: new Date(Date.UTC(2025, 9, 1 + run)),
      })
      bytes = pdf.byteLength
    }, runs)
    return { count, medianMs, firstMs, bytes }
  }
  try {
    return { one: await time(1, 10), many: await time(200, 4) }
  } finally {
    await closePdfPool()
  }
}

if (process.argv[1]?.endsWith('letters.ts')) {
  const { one, many } = await benchLetters()
  console.log(JSON.stringify({ one, many }))
}
