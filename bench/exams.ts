// The printed test (issue #7): a 30-question test of every type, its answer key, and two
// versions with their keys, rendered with a warm compiler; a different test each time so
// typst's cache cannot answer from the last one.
import { setImmediate as turn } from 'node:timers/promises'
import { renderExamPdf, type ExamRecord } from '#app/features/exams/index.server.ts'
import { examSchema } from '#app/features/exams/schemas.ts'
import { examRecordOf, sampleExam } from '#tests/exams.ts'
import { median } from './measure.ts'


function thirtyQuestions(title: string): ExamRecord {
  const base = sampleExam()
  const questions = Array.from({ length: 30 }, (_, i) => {
    const q = base.questions[i % base.questions.length]!
    return q.type === 'essay' ? { ...q, text: `${q.text} (${i + 1})`, lines: 8 } : { ...q, text: `${q.text} (${i + 1})` }
  })
  return examRecordOf(examSchema.parse({ ...base, title, questions }))
}

export async function benchExams() {
  const images = new Map()
  const time = async (kind: { answers: boolean; versions: number | null }) => {
    renderExamPdf(thirtyQuestions('warm-up'), { lang: 'ar', images, ...kind })
    const times: number[] = []
    let pages = 0
    for (let i = 0; i < 9; i++) {
      const exam = thirtyQuestions(`اختبار ${i}`)
      const t0 = performance.now()
      const pdf = renderExamPdf(exam, { lang: 'ar', images, ...kind, seed: `bench-${i}` })
      times.push(performance.now() - t0)
      pages = (Buffer.from(pdf).toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length
      await turn()
    }
    return { medianMs: median(times), pages }
  }
  return {
    test: await time({ answers: false, versions: null }),
    key: await time({ answers: true, versions: null }),
    versions: await time({ answers: false, versions: 2 }),
  }
}
