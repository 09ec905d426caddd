// `npm run bench`: the project's speed figures, printed as a table.
import { benchAuth } from './auth.ts'
import { benchBilling } from './billing.ts'
import { benchAbsence } from './absence.ts'
import { benchExams } from './exams.ts'
import { benchGrades } from './grades.ts'
import { benchXlsx } from './xlsx.ts'

const rows: Array<[string, string]> = []
const auth = await benchAuth()
rows.push([`argon2id hash (m=19456, t=2, p=1), median of 15`, `${auth.hashMedianMs.toFixed(1)} ms`])
rows.push([`login through /api/v1/auth/login (${auth.database}, 8 concurrent, ${auth.logins} requests, ${auth.loginsOk} ok)`, `${auth.loginsPerSecond.toFixed(1)} /s`])

const billing = await benchBilling()
rows.push([`settlePayment: fetch, checks, paid + subscription + invoice + notification (${billing.database}), median of 30`, `${billing.settleMedianMs.toFixed(1)} ms`])
rows.push([`invoice PDF (typst, warm), median of 30`, `${billing.pdfMedianMs.toFixed(1)} ms`])

const mb = (bytes: number) => (bytes < 1 << 20 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / (1 << 20)).toFixed(1)} MB`)
const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`
const xlsx = await benchXlsx()
for (const x of xlsx) {
  const size = `${x.rows.toLocaleString('en')} rows, ${mb(x.fileBytes)} .xlsx, ${mb(x.sheetBytes)} sheet XML`
  rows.push([`xlsx ${size}: readSheet, median of ${x.runs - 1} warm (first ${ms(x.ours.firstMs)})`, `${ms(x.ours.medianMs)}, peak +${x.ours.peakMb.toFixed(0)} MB${x.sheetBytes >= 1 << 20 ? ` (${(x.ours.peakMb / (x.sheetBytes / (1 << 20))).toFixed(1)}× the sheet)` : ''}`])
  rows.push([`xlsx ${size}: SheetJS read, median of ${x.runs - 1} warm (first ${ms(x.sheetjs.firstMs)})`, `${ms(x.sheetjs.medianMs)}, peak +${x.sheetjs.peakMb.toFixed(0)} MB`])
  rows.push([`xlsx ${size}: SheetJS time / readSheet time`, `${(x.sheetjs.medianMs / x.ours.medianMs).toFixed(1)}×`])
}

for (const a of await benchAbsence()) {
  const size = `${a.rows.toLocaleString('en')} rows`
  const sheetjs = xlsx.find((x) => x.rows === a.rows)?.sheetjs.medianMs ?? Number.NaN
  rows.push([`absence upload → stored report, ${size} (${a.database}), median (first ${ms(a.firstMs)})`, `${ms(a.medianMs)}, peak +${a.peakMb.toFixed(0)} MB (${(a.peakMb / (a.sheetBytes / (1 << 20))).toFixed(1)}× the sheet), stored ${mb(a.storedBytes)}`])
  rows.push([`absence upload → stored report / SheetJS read alone, ${size} (goal ≤ 1.0, aim 0.5)`, `${(a.medianMs / sheetjs).toFixed(2)}`])
}

for (const g of await benchGrades()) {
  const size = `${g.rows.toLocaleString('en')} rows, ${mb(g.fileBytes)} .xlsx, ${mb(g.sheetBytes)} sheet XML`
  rows.push([`grades ${size}: readSheet + analyseGrades, median of ${g.runs - 1} warm (first ${ms(g.ours.firstMs)})`, `${ms(g.ours.medianMs)} (analysis ${ms(g.ours.analyseMs ?? 0)}), peak +${g.ours.peakMb.toFixed(0)} MB`])
  rows.push([`grades ${size}: SheetJS read alone, median of ${g.runs - 1} warm (first ${ms(g.sheetjs.firstMs)})`, `${ms(g.sheetjs.medianMs)}, peak +${g.sheetjs.peakMb.toFixed(0)} MB`])
  rows.push([`grades ${size}: (read + analysis) / SheetJS read alone`, `${(g.ours.medianMs / g.sheetjs.medianMs).toFixed(2)} time, ${(g.ours.peakMb / g.sheetjs.peakMb).toFixed(2)} memory`])
}

const exams = await benchExams()
rows.push([`test PDF, 30 questions of every type, Arabic (typst, warm), median of 9 (${exams.test.pages} pages)`, ms(exams.test.medianMs)])
rows.push([`its answer key, median of 9 (${exams.key.pages} pages)`, ms(exams.key.medianMs)])
rows.push([`two shuffled versions with their keys in one PDF, median of 9 (${exams.versions.pages} pages)`, ms(exams.versions.medianMs)])

const width = Math.max(...rows.map(([k]) => k.length))
console.log(`\n${'measure'.padEnd(width)}  value`)
console.log(`${'-'.repeat(width)}  ${'-'.repeat(12)}`)
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`)
