import * as XLSX from '@e965/xlsx'
import { describe, expect, it } from 'vitest'
import { absenceSampleWorkbook } from './sample-workbook.server.ts'

// The sample is read back as a stranger would read it (SheetJS), and checked against docs/absence.md
// rather than against the code that wrote it.

/** docs/absence.md's text normalisation (lower-cased, since headers compare without case). */
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

/** docs/absence.md's status rules, in their order. */
function classify(status: string): 'present' | 'late' | 'excused' | 'unexcused' | 'unknown' {
  const s = normalise(status)
  if (/بدون عذر|بغير عذر|غير مبرر|\bunexcused\b/.test(s)) return 'unexcused'
  if (/عذر|excused/.test(s)) return 'excused'
  if (/متاخر|تاخر|late/.test(s)) return 'late'
  if (s === '' || /حاضر|حضور|present/.test(s)) return 'present'
  return 'unknown'
}

// Every accepted header of the required columns (docs/absence.md, "Table").
const requiredHeaders: Record<string, string[]> = {
  student: ['اسم الطالب', 'الاسم', 'Student name', 'Student'],
  grade: ['الصف', 'رقم الصف', 'المرحلة', 'Grade'],
  classroom: ['الفصل', 'رقم الفصل', 'الشعبة', 'Class', 'Classroom'],
  date: ['التاريخ', 'تاريخ الغياب', 'Date'],
  status: ['الحالة', 'نوع الغياب', 'Status'],
}

const sampleHeaders = {
  ar: ['اسم الطالب', 'رقم الهوية', 'الصف', 'الفصل', 'القسم', 'النظام الدراسي', 'التاريخ', 'اليوم', 'الحالة'],
  en: ['Student name', 'National ID', 'Grade', 'Class', 'Section', 'Education system', 'Date', 'Day name', 'Status'],
}

const weekdays = {
  ar: ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس', 'الجمعة', 'السبت'],
  en: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
}

const titleLabels = { ar: ['اسم المدرسة', 'من تاريخ', 'إلى تاريخ', 'الفصل الدراسي'], en: ['School', 'From', 'To', 'Term'] }
const sheetNames = { ar: ['الغياب', 'شرح الأعمدة'], en: ['Absence', 'Columns'] } as const

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

/** The calendar day of a date cell (a number with a date format), or null for anything else. */
function dateOf(cell: XLSX.CellObject | undefined): Date | null {
  if (cell?.t !== 'n' || !XLSX.SSF.is_date(String(cell.z ?? ''))) return null
  return new Date(Math.round((Number(cell.v) - 25_569) * 86_400_000))
}

function findHeaderRow(rows: Row[]): number {
  return rows.slice(0, 30).findIndex((row) => {
    const cells = row.map((c) => normalise(text(c)))
    return Object.values(requiredHeaders).every((names) => names.some((n) => cells.includes(normalise(n))))
  })
}

describe.each(['ar', 'en'] as const)('absence sample (%s)', (lang) => {
  const wb = XLSX.read(absenceSampleWorkbook(lang), { type: 'buffer', cellNF: true })
  const rows = rowsOf(wb.Sheets[sheetNames[lang][0]] as XLSX.WorkSheet)
  const headerIndex = findHeaderRow(rows)
  const header = (rows[headerIndex] ?? []).map(text)
  const col = (name: string) => header.indexOf(name)
  const data = rows.slice(headerIndex + 1).filter((row) => row.some((c) => text(c) !== ''))
  const h = sampleHeaders[lang]

  it('has the data sheet first and the columns sheet second, right to left in Arabic', () => {
    expect(wb.SheetNames).toEqual(sheetNames[lang])
    expect(Boolean(wb.Workbook?.Views?.[0]?.RTL)).toBe(lang === 'ar')
  })

  it('has a title block, an empty row and the header row with every sample header', () => {
    expect(rows.slice(0, 4).map((row) => text(row[0]))).toEqual(titleLabels[lang])
    for (const row of rows.slice(0, 4)) expect(text(row[1])).not.toBe('')
    const from = dateOf(rows[1]?.[1])
    const to = dateOf(rows[2]?.[1])
    expect(from).toBeInstanceOf(Date)
    expect(to).toBeInstanceOf(Date)
    expect(Number(from)).toBeLessThan(Number(to))
    expect(rows[4]?.every((c) => c === undefined)).toBe(true)
    expect(headerIndex).toBe(5)
    expect(header).toEqual(h)
  })

  it('holds every school day of every student, present days included', () => {
    const dates = new Set(data.map((row) => Number(dateOf(row[col(h[6] as string)]))))
    const students = new Set(data.map((row) => text(row[col(h[1] as string)])))
    expect(students.size).toBeGreaterThanOrEqual(6)
    expect(students.size).toBeLessThanOrEqual(10)
    expect(dates.size).toBeGreaterThanOrEqual(5)
    expect(data).toHaveLength(students.size * dates.size)
    const pairs = new Set(data.map((row) => `${text(row[col(h[1] as string)])} ${Number(dateOf(row[col(h[6] as string)]))}`))
    expect(pairs.size).toBe(data.length)
    const classrooms = new Set(data.map((row) => `${text(row[col(h[2] as string)])} / ${text(row[col(h[3] as string)])}`))
    expect(classrooms.size).toBeGreaterThanOrEqual(2)
    expect(classrooms.size).toBeLessThanOrEqual(3)
  })

  it('writes dates as date cells on school days, with the weekday that matches', () => {
    const dates = data.map((row) => dateOf(row[col(h[6] as string)]))
    expect(dates.filter((d) => d === null)).toEqual([])
    const days = dates.map((d) => d as Date)
    expect(days.filter((d) => d.getUTCHours() !== 0 || d.getUTCDay() > 4)).toEqual([])
    const written = data.map((row) => text(row[col(h[7] as string)]))
    expect(written).toEqual(days.map((d) => weekdays[lang][d.getUTCDay()]))
  })

  it('uses every status, each classified as intended, and keeps every student present most days', () => {
    const statuses = data.map((row) => text(row[col(h[8] as string)]))
    const classes = statuses.map(classify)
    expect(classes).not.toContain('unknown')
    expect(new Set(classes)).toEqual(new Set(['present', 'late', 'excused', 'unexcused']))
    const wording = { ar: ['حاضر', 'متأخر', 'غائب بعذر', 'غائب بدون عذر'], en: ['Present', 'Late', 'Excused absence', 'Unexcused absence'] }
    expect(new Set(statuses)).toEqual(new Set(wording[lang]))
    expect(wording[lang].map(classify)).toEqual(['present', 'late', 'excused', 'unexcused'])

    const byStudent = new Map<string, string[]>()
    data.forEach((row, i) => {
      const id = text(row[col(h[1] as string)])
      byStudent.set(id, [...(byStudent.get(id) ?? []), classes[i] as string])
    })
    const mostlyAbsent = [...byStudent].filter(([, list]) => list.filter((c) => c === 'present' || c === 'late').length <= list.length / 2)
    expect(mostlyAbsent).toEqual([])
  })

  it('gives every student a realistic name and a ten-digit national ID', () => {
    const names = data.map((row) => text(row[col(h[0] as string)]))
    const realistic =
      lang === 'ar'
        ? (n: string) => /^[\u0600-\u06FF ]+$/.test(n) && n.split(' ').length === 4
        : (n: string) => /^[A-Za-z' -]+$/.test(n) && n.split(' ').length >= 4
    expect(names.filter((n) => !realistic(n))).toEqual([])
    expect(data.map((row) => text(row[col(h[1] as string)])).filter((id) => !/^[12]\d{9}$/.test(id))).toEqual([])
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
    expect(required('اسم الطالب')).toBe('نعم')
    expect(required('رقم الهوية')).toBe('لا')
    expect(required('Status')).toBe('Yes')
    expect(required('Day name')).toBe('No')
    // The file's own language comes first.
    const firstArabic = firstColumn.indexOf('اسم الطالب')
    const firstEnglish = firstColumn.indexOf('Student name')
    expect(firstArabic < firstEnglish).toBe(lang === 'ar')
  })
})

it('writes the same bytes each time', () => {
  expect(Buffer.from(absenceSampleWorkbook('ar')).equals(Buffer.from(absenceSampleWorkbook('ar')))).toBe(true)
})
