import * as XLSX from '@e965/xlsx'
import { describe, expect, it } from 'vitest'
import { gradesSampleWorkbook } from './sample-workbook.server.ts'

// The sample is read back as a stranger would read it (SheetJS), and checked against docs/grades.md
// rather than against the code that wrote it.

/** The shared text normalisation of docs/absence.md (lower-cased, since headers compare without case). */
function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u064B-\u065F\u0670\u0640\u200C-\u200F\u202A-\u202E]/g, '')
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ى/g, 'ي')
    .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
}

// Every accepted header of the required columns (docs/grades.md, "Table").
const requiredHeaders: Record<string, string[]> = {
  student: ['اسم الطالب', 'الاسم', 'Student name', 'Student'],
  grade: ['الصف', 'رقم الصف', 'Grade'],
  classroom: ['الفصل', 'رقم الفصل', 'الشعبة', 'Class', 'Classroom'],
  score: ['الدرجة', 'الدرجة المستحقة', 'Score', 'Mark'],
}

const sampleHeaders = {
  ar: ['اسم الطالب', 'رقم الهوية', 'الصف', 'الفصل', 'المادة', 'الدرجة', 'الدرجة العظمى'],
  en: ['Student name', 'National ID', 'Grade', 'Class', 'Subject', 'Score', 'Max score'],
}

const titleLabels = {
  ar: ['اسم المدرسة', 'المادة', 'الاختبار', 'الفصل الدراسي', 'الدرجة العظمى'],
  en: ['School', 'Subject', 'Exam', 'Term', 'Max score'],
}
const sheetNames = { ar: ['الدرجات', 'شرح الأعمدة'], en: ['Grades', 'Columns'] } as const

/** docs/grades.md's default bands by percent. */
function band(percent: number): string {
  if (percent >= 90) return 'excellent'
  if (percent >= 80) return 'veryGood'
  if (percent >= 70) return 'good'
  if (percent >= 50) return 'acceptable'
  return 'weak'
}

type Row = (XLSX.CellObject | undefined)[]

function rowsOf(ws: XLSX.WorkSheet): Row[] {
  const range = XLSX.utils.decode_range(ws['!ref'] ?? 'A1')
  const rows: Row[] = []
  for (let r = 0; r <= range.e.r; r++) {
    const row: Row = []
    for (let c = 0; c <= range.e.c; c++) row.push(ws[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined)
    rows.push(row)
  }
  return rows
}

const text = (cell: XLSX.CellObject | undefined) => (cell?.v === undefined ? '' : String(cell.v))

function findHeaderRow(rows: Row[]): number {
  return rows.slice(0, 30).findIndex((row) => {
    const cells = row.map((c) => normalise(text(c)))
    return Object.values(requiredHeaders).every((names) => names.some((n) => cells.includes(normalise(n))))
  })
}

describe.each(['ar', 'en'] as const)('grades sample (%s)', (lang) => {
  const wb = XLSX.read(gradesSampleWorkbook(lang), { type: 'buffer', cellNF: true })
  const rows = rowsOf(wb.Sheets[sheetNames[lang][0]] as XLSX.WorkSheet)
  const headerIndex = findHeaderRow(rows)
  const header = (rows[headerIndex] ?? []).map(text)
  const data = rows.slice(headerIndex + 1).filter((row) => row.some((c) => text(c) !== ''))
  const h = sampleHeaders[lang]
  const cell = (row: Row, name: string) => row[header.indexOf(name)]

  it('has the data sheet first and the columns sheet second, right to left in Arabic', () => {
    expect(wb.SheetNames).toEqual(sheetNames[lang])
    expect(Boolean(wb.Workbook?.Views?.[0]?.RTL)).toBe(lang === 'ar')
  })

  it('has a title block with the max score, an empty row and the header row with every sample header', () => {
    expect(rows.slice(0, 5).map((row) => text(row[0]))).toEqual(titleLabels[lang])
    for (const row of rows.slice(0, 5)) expect(text(row[1])).not.toBe('')
    expect(rows[4]?.[1]).toMatchObject({ t: 'n', v: 50 })
    expect(rows[5]?.every((c) => c === undefined)).toBe(true)
    expect(headerIndex).toBe(6)
    expect(header).toEqual(h)
  })

  it('holds one row per student and subject, for two subjects and two or three classrooms', () => {
    const subjects = new Set(data.map((row) => text(cell(row, h[4] as string))))
    const classrooms = new Set(data.map((row) => `${text(cell(row, h[2] as string))} / ${text(cell(row, h[3] as string))}`))
    const students = new Set(data.map((row) => text(cell(row, h[1] as string))))
    expect(subjects.size).toBe(2)
    expect(classrooms.size).toBeGreaterThanOrEqual(2)
    expect(classrooms.size).toBeLessThanOrEqual(3)
    expect(data).toHaveLength(students.size * subjects.size)
    const pairs = new Set(data.map((row) => `${text(cell(row, h[1] as string))} ${text(cell(row, h[4] as string))}`))
    expect(pairs.size).toBe(data.length)
    expect(data.map((row) => text(cell(row, h[1] as string))).filter((id) => !/^[12]\d{9}$/.test(id))).toEqual([])
    const names = data.map((row) => text(cell(row, h[0] as string)))
    const realistic =
      lang === 'ar'
        ? (n: string) => /^[\u0600-\u06FF ]+$/.test(n) && n.split(' ').length === 4
        : (n: string) => /^[A-Za-z' -]+$/.test(n) && n.split(' ').length >= 4
    expect(names.filter((n) => !realistic(n))).toEqual([])
  })

  it('has absent students and, in each subject, scores with decimals in every band', () => {
    expect(data.map((row) => cell(row, h[6] as string)?.v)).toEqual(data.map(() => 50))
    const scores = data.map((row) => cell(row, h[5] as string))
    const absentWords = scores.filter((c) => c?.t !== 'n').map((c) => normalise(text(c)))
    expect(absentWords.filter((w) => !['غائب', 'غ', 'absent'].includes(w))).toEqual([])

    const summary = (subject: string) => {
      const rowsOfSubject = data.filter((row) => text(cell(row, h[4] as string)) === subject)
      const values = rowsOfSubject
        .map((row) => cell(row, h[5] as string))
        .filter((c) => c?.t === 'n')
        .map((c) => Number(c?.v))
      const bands = values.map((v) => band((100 * v) / 50))
      return {
        absent: rowsOfSubject.length - values.length,
        outOfRange: values.filter((v) => v < 0 || v > 50),
        hasDecimals: values.some((v) => !Number.isInteger(v)),
        fewestInABand: Math.min(...['excellent', 'veryGood', 'good', 'acceptable', 'weak'].map((k) => bands.filter((b) => b === k).length)),
      }
    }
    const subjects = [...new Set(data.map((row) => text(cell(row, h[4] as string))))]
    expect(subjects).toHaveLength(2)
    for (const subject of subjects) {
      const s = summary(subject)
      expect(s.absent).toBeGreaterThanOrEqual(1)
      expect(s.outOfRange).toEqual([])
      expect(s.hasDecimals).toBe(true)
      expect(s.fewestInABand).toBeGreaterThanOrEqual(2)
    }
  })

  it('explains every column in Arabic and in English', () => {
    const guide = rowsOf(wb.Sheets[sheetNames[lang][1]] as XLSX.WorkSheet)
    const firstColumn = guide.map((row) => text(row[0]))
    const all = [...sampleHeaders.ar, ...sampleHeaders.en]
    expect(all.filter((name) => !firstColumn.includes(name))).toEqual([])
    // required?, example, other headers, accepted values
    const incomplete = all.filter((name) => (guide[firstColumn.indexOf(name)] ?? []).slice(1, 5).some((c) => text(c) === ''))
    expect(incomplete).toEqual([])
    const required = (name: string) => text(guide[firstColumn.indexOf(name)]?.[1])
    expect(required('الدرجة')).toBe('نعم')
    expect(required('المادة')).toBe('لا')
    expect(required('Score')).toBe('Yes')
    expect(required('Max score')).toBe('No')
  })
})

it('writes the same bytes each time', () => {
  expect(Buffer.from(gradesSampleWorkbook('en')).equals(Buffer.from(gradesSampleWorkbook('en')))).toBe(true)
})
