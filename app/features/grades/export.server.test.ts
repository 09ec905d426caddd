import path from 'node:path'
import * as XLSX from '@e965/xlsx'
import { describe, expect, it } from 'vitest'
import { readWorkbookRows } from '#tests/workbook-rows.ts'
import { analyseGrades, gradesSheetNames } from './analyse-grades.ts'
import { bandPresets } from './bands.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { gradesExport, storedGrades } from './export.server.ts'

// A saved grades analysis as the route and the API hand it over (the title block as strings),
// out as a download; with other bands, recomputed from the saved records first.

const { rows, sheetName } = readWorkbookRows(path.resolve(import.meta.dirname, 'fixtures/small-ar.xlsx'), gradesSheetNames)
const analysis = analyseGrades(rows, { sheetName })
// The records are in the stored row (as saved before entries): nothing may ask the database.
const noDatabase = new Proxy(
  {},
  {
    get() {
      throw new Error('the database was asked')
    },
  },
) as Db
const stored = {
  kind: 'grades' as const,
  id: '0d6f1c8e-8a43-4c1e-9a55-3f7f1f0b2a10',
  title: 'الرياضيات: نتائج "الفترة" الأولى',
  meta: { school: 'متوسطة النور', exam: 'اختبار منتصف الفصل', maxScore: '100' },
  report: analysis.report,
  records: analysis.records,
  createdAt: new Date('2026-11-22T14:05:09Z'),
}

describe('gradesExport', () => {
  it('reads the stored title block back, the max score as a number', () => {
    expect(storedGrades(stored).meta).toEqual({ school: 'متوسطة النور', exam: 'اختبار منتصف الفصل', maxScore: 100 })
    expect(storedGrades({ ...stored, meta: { maxScore: 'n/a' } }).meta).toEqual({})
  })

  it('sends the workbook as a download named after the title', async () => {
    const response = await gradesExport({ db: noDatabase, stored, format: 'xlsx', lang: 'ar' })
    expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="grades-2026-11-22.xlsx"; filename*=UTF-8''${encodeURIComponent('الرياضيات  نتائج  الفترة  الأولى.xlsx')}`,
    )
    const wb = XLSX.read(new Uint8Array(await response.arrayBuffer()), { type: 'buffer' })
    expect(wb.SheetNames[0]).toBe('الملخص')
    expect(XLSX.utils.sheet_to_json<string[]>(wb.Sheets['التقديرات - الرياضيات'] as XLSX.WorkSheet, { header: 1 })[0]?.[3]).toBe(
      'عدد ممتاز',
    )
  })

  it('recomputes the report with the bands asked for, and sends the PDF', async () => {
    const xlsx = await gradesExport({ db: noDatabase, stored, format: 'xlsx', lang: 'en', bands: bandPresets.elementary })
    const wb = XLSX.read(new Uint8Array(await xlsx.arrayBuffer()), { type: 'buffer' })
    const header = XLSX.utils.sheet_to_json<string[]>(wb.Sheets['Bands - الرياضيات'] as XLSX.WorkSheet, { header: 1 })[0]
    expect(header?.slice(3, 5)).toEqual(['Outstanding: count', 'Outstanding: %'])

    const pdf = await gradesExport({ db: noDatabase, stored, format: 'pdf', lang: 'en' })
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; filename="grades-2026-11-22\.pdf"; filename\*=UTF-8''.+\.pdf$/)
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
  })
})
