import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import * as XLSX from '@e965/xlsx'
import { describe, expect, it } from 'vitest'
import { analyseAbsence } from '#app/features/absence/index.ts'
import { absenceStorage } from '#app/features/absence/index.server.ts'
import { saveAnalysis } from '#app/features/analyses/index.server.ts'
import { users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { absenceWorkbook, firstSunday, hind, reem, sara, threeUploads } from '#tests/follow-up-workbooks.ts'
import { readWorkbookRows } from '#tests/workbook-rows.ts'
import { findFollowUpRegister, recordIssue, studentRef } from './register.server.ts'
import { followUpRegisterExport } from './register-export.server.ts'

// The register's Excel and PDF (docs/follow-up.md) after the October upload with one document
// recorded: the counts per classroom, the students owed a document, the entry. With
// REGISTER_PDF=<file> the Arabic PDF is kept for a person to look at.

const testDb = setupTestDatabase()

let n = 0
async function teacherWithOctober() {
  const db = testDb().db
  const [user] = await db
    .insert(users)
    .values({ username: `export ${++n}`, email: `export-${n}-${Date.now()}@example.sa`, phone: '+966551234567', passwordHash: 'x' })
    .returning()
  const u = threeUploads[0]!
  const analysis = analyseAbsence(readWorkbookRows(absenceWorkbook(u.students, firstSunday, u.days), ['الغياب']).rows)
  const { records, entries } = absenceStorage(analysis)
  await saveAnalysis({
    db,
    input: { userId: user!.id, kind: 'absence', title: 'October', meta: {}, headline: {}, report: analysis.report, records },
    entries,
  })
  const view = await findFollowUpRegister({ db, userId: user!.id })
  const ref = studentRef(view.outstanding.find((s) => s.name === sara.name)!.key)
  const issue = {
    student: ref,
    step: 1,
    school_year: 2025,
    issued_on: '2025-10-20',
    issued_by: 'أ. منى',
    status: 'declined',
    notes: 'لم يحضر',
  } as const
  await recordIssue({ db, userId: user!.id, issue })
  return user!.id
}

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer())

describe('the register’s exports', () => {
  it('as Excel: the counts per classroom, the students owed a document, the entries', async () => {
    const userId = await teacherWithOctober()
    const res = await followUpRegisterExport({ db: testDb().db, userId, lang: 'en', format: 'xlsx' })
    const book = XLSX.read(await bytesOf(res))
    expect(book.SheetNames).toEqual(['Classrooms', 'Outstanding', 'Issued'])
    const rows = (name: string) => XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[name]!, { header: 1 })
    const summary = rows('Classrooms')
    expect(summary).toContainEqual(['At a step', 3])
    expect(summary).toContainEqual(['Owed a document', 2])
    expect(summary).toContainEqual(['Declined to sign', 1])
    expect(summary).toContainEqual(['الأول المتوسط / 1', 3, 1, 2])
    expect(rows('Outstanding').slice(1)).toEqual([
      [reem.name, reem.studentId, 'الأول المتوسط / 1', 'Second warning', 5],
      [hind.name, undefined, 'الأول المتوسط / 1', 'Change of enrolment file', 25],
    ])
    // The date as an Excel date (20 October 2025 is serial 45950), the Hijri date beside it.
    expect(rows('Issued')[1]).toEqual([
      sara.name,
      sara.studentId,
      'الأول المتوسط / 1',
      'First warning',
      3,
      45950,
      '28 Rab. II 1447 AH',
      'أ. منى',
      'Guardian declined to sign',
      'لم يحضر',
    ])
  })

  it('as PDF in Arabic: the header, the students owed a document and the entry', async () => {
    const userId = await teacherWithOctober()
    const res = await followUpRegisterExport({ db: testDb().db, userId, lang: 'ar', format: 'pdf', preparedBy: 'منى' })
    expect(res.headers.get('content-type')).toBe('application/pdf')
    const pdf = await bytesOf(res)
    if (process.env.REGISTER_PDF) writeFileSync(process.env.REGISTER_PDF, pdf)
    const text = execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: pdf }).toString()
    expect(text).toContain('سجل المتابعة')
    expect(text).toContain(hind.name)
    expect(text).toContain('امتنع ولي الأمر عن التوقيع')
  })
})
