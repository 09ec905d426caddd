// Noor's own layouts (docs/noor-layouts.md), read the way an upload is (readWorkbook over every
// sheet, then the analysis), against SheetJS merely reading the same file: the absence totals of
// 20,000 students on 40 classroom sheets, and 1,000 report cards (one sheet per student). Each
// measurement runs in its own process, so its peak memory is its own. Figures, not assertions.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import XLSX from '@e965/xlsx'
import { FAMILY_NAMES, FIRST_NAMES, random, studentName } from '#tests/support/workbook-kit.ts'
import { measureInChild, timeRuns, type Timing } from './measure.ts'

type Job = 'absence' | 'grades' | 'sheetjs'

export interface NoorBenchResult {
  readonly name: string
  readonly fileBytes: number
  readonly sheets: number
  readonly runs: number
  /** readWorkbook + the analysis; `partMs`: the analysis alone. */
  readonly ours: Timing & { partMs?: number }
  readonly sheetjs: Timing
}

const self = fileURLToPath(import.meta.url)
const merge = (r: number, c1: number, c2: number) => ({ s: { r, c: c1 }, e: { r, c: c2 } })

/** Noor's absence report: per classroom sheet a reversed title block and table, spacer columns, a footer. */
export function absenceTotalsWorkbook(students: number, sheets: number): Uint8Array {
  const rand = random(14)
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([
      ['اسم المدرسة', 'متوسطة الإمام البخاري'],
      ['العام الدراسي', '1447هـ'],
    ]),
    'School Info',
  )
  const perSheet = Math.ceil(students / sheets)
  for (let s = 0; s < sheets; s++) {
    const rows: unknown[][] = [
      [null, null, null, null, null, null, null, null, null, null, null, 'المملكة العربية السعودية'],
      [null, null, null, null, null, null, null, null, null, null, null, 'وزارة التعليم'],
      [],
      [null, null, null, 'تقرير إجمالي غياب وتأخر الطلاب'],
      [null, null, '1447/04/15 هـ', null, null, ':', 'إلى تاريخ', null, null, null, null, '1447/03/01 هـ', null, null, ':', 'من تاريخ'],
      [
        null,
        null,
        String((s % 8) + 1),
        null,
        ':',
        'الفصل',
        null,
        null,
        null,
        null,
        ['الأول المتوسط', 'الثاني المتوسط', 'الثالث المتوسط'][s % 3],
        null,
        null,
        null,
        ':',
        'الصف',
      ],
      [],
      [
        null,
        'غياب حصص',
        null,
        'التأخر',
        null,
        'الغياب بدون عذر',
        null,
        'الغياب بعذر',
        null,
        'رقم الهوية',
        null,
        null,
        'الاســـم',
        null,
        null,
        'م',
      ],
    ]
    for (let i = 0; i < perSheet && s * perSheet + i < students; i++) {
      const excused = Math.floor(rand() * 4)
      const unexcused = rand() < 0.2 ? Math.floor(rand() * 12) : Math.floor(rand() * 3)
      rows.push([
        null,
        Math.floor(rand() * 3),
        null,
        Math.floor(rand() * 4),
        null,
        unexcused,
        null,
        excused,
        null,
        `${1_100_000_000 + s * perSheet + i}.0`,
        null,
        null,
        studentName(rand),
        null,
        null,
        i + 1,
      ])
    }
    rows.push(
      [],
      [null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, 'قائد المدرسة: فهد بن ناصر العتيبي'],
    )
    const sheet = XLSX.utils.aoa_to_sheet(rows)
    sheet['!merges'] = [merge(0, 11, 15), merge(3, 3, 12), merge(7, 12, 14)]
    XLSX.utils.book_append_sheet(book, sheet, `Sheet${s + 1}`)
  }
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Uint8Array
}

const SUBJECTS = [
  'القرآن الكريم والتجويد',
  'الرياضيات',
  'اللغة الإنجليزية',
  'الكفايات اللغوية',
  'الكيمياء',
  'الفيزياء',
  'التفكير الناقد',
  'المهارات الرقمية',
]

/** Noor's report cards: one sheet per student, the name in the title block, a row per subject. */
export function reportCardsWorkbook(students: number): Uint8Array {
  const rand = random(15)
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([
      ['اسم المدرسة', 'ثانوية الأمير سلطان'],
      ['الفترة', 'الأولى'],
    ]),
    'الغلاف',
  )
  for (let s = 0; s < students; s++) {
    const name = `${FIRST_NAMES[s % FIRST_NAMES.length]} ${studentName(rand)} ${FAMILY_NAMES[s % FAMILY_NAMES.length]}`
    const rows: unknown[][] = [
      [null, null, null, null, null, null, null, null, null, null, null, null, null, null, 'وزارة التعليم'],
      [],
      [null, null, null, null, null, 'إشعار فترة أولى'],
      [null, null, null, null, null, null, null, null, null, null, null, name, null, null, null, null, null, null, ':', 'اسم الطالب'],
      [
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        `${1_100_000_000 + s}.0`,
        null,
        null,
        null,
        null,
        ':',
        'رقم الهوية',
      ],
      [
        null,
        null,
        null,
        String((s % 10) + 1),
        null,
        null,
        ':',
        'الفصل',
        null,
        null,
        null,
        null,
        null,
        'الأول الثانوي',
        null,
        null,
        null,
        null,
        ':',
        'الصف',
      ],
      [],
      [null, null, null, null, null, 'التقدير', null, null, null, 'مجموع', null, null, 'النهاية العظمى', null, null, 'المادة'],
    ]
    for (const subject of SUBJECTS) {
      const max = subject === 'التفكير الناقد' || subject === 'المهارات الرقمية' ? 50 : 100
      rows.push([
        null,
        null,
        null,
        null,
        null,
        'جيد',
        null,
        null,
        null,
        Math.round(max * (0.4 + rand() * 0.6) * 2) / 2,
        null,
        null,
        max,
        null,
        null,
        subject,
      ])
    }
    rows.push([null, null, null, null, null, 'ممتاز', null, null, null, 100, null, null, 100, null, null, 'السلوك'])
    rows.push([null, null, null, null, null, null, null, null, null, 600, null, null, 700, null, null, 'المجموع'])
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), `${s + 1}`)
  }
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Uint8Array
}

export async function benchNoor(): Promise<NoorBenchResult[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hallil-bench-noor-'))
  try {
    const cases: Array<{ name: string; job: Job; data: Uint8Array; sheets: number; runs: number }> = [
      {
        name: 'absence totals, 20,000 students on 40 classroom sheets',
        job: 'absence',
        data: absenceTotalsWorkbook(20_000, 40),
        sheets: 41,
        runs: 5,
      },
      { name: 'report cards, 1,000 sheets (one per student)', job: 'grades', data: reportCardsWorkbook(1_000), sheets: 1_001, runs: 5 },
    ]
    return cases.map(({ name, job, data, sheets, runs }, i) => {
      const file = path.join(dir, `noor-${i}.xlsx`)
      writeFileSync(file, data)
      return {
        name,
        fileBytes: data.length,
        sheets,
        runs,
        ours: measureInChild<Timing & { partMs?: number }>(self, [job, file, String(runs)], `noor ${job}`),
        sheetjs: measureInChild<Timing>(self, ['sheetjs', file, String(runs)], 'noor (sheetjs)'),
      }
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** In the child: run the job `runs` times on the file and print the figures as JSON. */
async function measure(job: Job, file: string, runs: number) {
  const data = readFileSync(file)
  let run: () => number | void
  if (job === 'sheetjs') {
    const sheetjs = await import('@e965/xlsx')
    run = () => {
      sheetjs.read(data, { type: 'buffer' })
    }
  } else {
    const { readWorkbook } = await import('#app/platform/workbook-reading/read-workbook.server.ts')
    const { analyseAbsence } = await import('#app/features/absence/index.ts')
    const { analyseGrades } = await import('#app/features/grades/index.ts')
    const options = { maxUncompressedBytes: 200 << 20, maxRows: 500_040, maxSheets: 1_000_000, timeBudgetMs: 120_000 }
    run = () => {
      const grid = readWorkbook(data, options)
      const t0 = performance.now()
      if (job === 'absence') analyseAbsence(grid)
      else analyseGrades(grid)
      return performance.now() - t0
    }
  }
  console.log(JSON.stringify(timeRuns(run, runs)))
}

if (process.argv[2] === '--measure' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await measure(process.argv[3] as Job, process.argv[4]!, Number(process.argv[5]))
}

/** The table rows of benchNoor: each layout's read + analysis, SheetJS's read alone, their ratio. */
export function noorRows(results: readonly NoorBenchResult[]): Array<[string, string]> {
  const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`
  const size = (bytes: number) => `${(bytes / (1 << 20)).toFixed(1)} MB`
  return results.flatMap(
    (r) =>
      [
        [
          `Noor ${r.name} (${size(r.fileBytes)} .xlsx, ${r.sheets.toLocaleString('en')} sheets): readWorkbook + analysis, median of ${r.runs - 1} warm (first ${ms(r.ours.firstMs)})`,
          `${ms(r.ours.medianMs)} (analysis ${ms(r.ours.partMs ?? 0)}), peak +${r.ours.peakMb.toFixed(0)} MB`,
        ],
        [
          `Noor ${r.name}: SheetJS read alone, median of ${r.runs - 1} warm (first ${ms(r.sheetjs.firstMs)})`,
          `${ms(r.sheetjs.medianMs)}, peak +${r.sheetjs.peakMb.toFixed(0)} MB`,
        ],
        [
          `Noor ${r.name}: (read + analysis) / SheetJS read alone`,
          `${(r.ours.medianMs / r.sheetjs.medianMs).toFixed(2)} time, ${(r.ours.peakMb / Math.max(1, r.sheetjs.peakMb)).toFixed(2)} memory`,
        ],
      ] satisfies Array<[string, string]>,
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv[2] !== '--measure') {
  for (const [k, v] of noorRows(await benchNoor())) console.log(`${k}  ${v}`)
}
