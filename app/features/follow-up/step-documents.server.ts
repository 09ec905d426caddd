import { loadAbsence, unexcusedDaysTally, type StoredAbsence } from '#app/features/absence/index.server.ts'
import { schoolDetailsOf, schoolLogoBytes } from '#app/features/accounts/index.server.ts'
import { createExportWords, exportResponse, findAnalysis, tableSheet, xlsxCells } from '#app/features/analyses/index.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import { DomainError } from '#app/lib/errors.ts'
import type { SchoolStudents } from '#app/lib/constants.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import type { FileStore } from '#app/platform/files.server.ts'
import { writeWorkbook, type XlsxCell } from '#app/platform/xlsx/write.server.ts'
import type { LadderDocument, LadderStep } from './ladder.ts'
import { ladderOf } from './ladder-settings.server.ts'
import { letterDay, letterWording, renderStepLettersPdf } from './letters-pdf.server.ts'
import { lettersAtStep, studentsPerStep, type StepStudent } from './step-documents.ts'

// A step's documents for the teacher's own absence analysis (docs/follow-up-letters.md): the
// letters as one PDF and the list of their students as a workbook, with the ladder in force
// (ladderOf) and the school details of her profile. Another teacher's analysis, a grades
// analysis, a step the ladder lacks or a step without students: 404.

export interface StepDocumentsOptions {
  readonly db: Db
  readonly files: FileStore
  readonly userId: string
  readonly analysisId: string
  /** 0 = the ladder's first step. */
  readonly stepIndex: number
  /** One classroom (`grade / classroom`, or its number alone); all when absent. */
  readonly classroom?: string | null
  readonly lang: Lang
  /** The day printed on the letters; today by default. */
  readonly issuedOn?: Date
}

type StepDocumentsData = { stored: StoredAbsence; step: LadderStep; students: StepStudent[] }

/** The analysis, the step and its students, or a 404 DomainError. */
async function stepDocumentsData({ db, userId, analysisId, stepIndex, classroom }: StepDocumentsOptions): Promise<StepDocumentsData> {
  const stored = await findAnalysis({ db, userId, id: analysisId })
  if (!stored || stored.kind !== 'absence') throw new DomainError(404, 'common.errors.notFoundApi')
  const ladder = await ladderOf({ db, userId })
  const step = Number.isInteger(stepIndex) ? ladder[stepIndex] : undefined
  if (!step) throw new DomainError(404, 'letters.errors.stepNotFound')
  const students = lettersAtStep((await loadAbsence({ db, stored })).students, ladder, stepIndex, classroom)
  if (students.length === 0) throw new DomainError(404, 'letters.errors.noStudents')
  return { stored, step, students }
}

/** The file's name: the analysis's title and the document (`<title> - First absence warning.pdf`). */
function download(bytes: Uint8Array, format: 'pdf' | 'xlsx', { stored, step }: StepDocumentsData, lang: Lang): Response {
  const { t } = createExportWords(lang, ['letters'])
  return exportResponse(bytes, format, {
    kind: `letters-${stored.kind}`,
    title: `${stored.title} - ${t(`letters.documents.${step.document}.title`)}`,
    createdAt: stored.createdAt,
  })
}

/** The letters of every student at a step, one A4 page each, in classroom and name order, as a download. */
export async function stepDocumentsPdf(options: StepDocumentsOptions): Promise<Response> {
  const data = await stepDocumentsData(options)
  const { db, files, userId, lang } = options
  const school = await schoolDetailsOf({ db, userId })
  const bytes = await renderStepLettersPdf({
    lang,
    document: data.step.document,
    students: data.students,
    school: {
      // The school's name from the profile, else the one the uploaded file gave.
      schoolName: school?.schoolName ?? data.stored.meta.school ?? null,
      educationOffice: school?.educationOffice ?? null,
      principalName: school?.principalName ?? null,
      counsellorName: school?.counsellorName ?? null,
      students: school?.students ?? 'boys',
    },
    logo: await schoolLogoBytes(files, school),
    ...(options.issuedOn ? { issuedOn: options.issuedOn } : {}),
  })
  return download(bytes, 'pdf', data, lang)
}

/** The workbook of a step's students: the document, then one row each with columns to mark what was signed. */
export function stepDocumentsWorkbook(
  lang: Lang,
  document: LadderDocument,
  students: readonly StepStudent[],
  schoolStudents: SchoolStudents = 'boys',
): Uint8Array {
  const { t } = createExportWords(lang, ['letters'])
  const wording = letterWording(schoolStudents)
  const headers = Array.from({ length: 10 }, (_, i) => t(`${wording.listHeaders}.${i}`))
  const body: XlsxCell[][] = students.map((s, i) => [
    xlsxCells.integer(i + 1),
    s.name,
    s.studentId ?? '',
    s.grade,
    s.classroom,
    xlsxCells.integer(s.unexcused),
    s.unexcusedDays
      ?.map((d) => {
        const day = letterDay(lang, d.date)
        return `${day.hijri} (${day.gregorian})`
      })
      .join('\n') ?? '',
    '',
    '',
    '',
  ])
  return writeWorkbook({ sheets: [tableSheet(t(`${wording.documents}.${document}.title`), lang, headers, body)], creator: 'Hallil' })
}

/** The list of a step's students as an Excel download (the same students as the letters). */
export async function stepDocumentsXlsx(options: StepDocumentsOptions): Promise<Response> {
  const data = await stepDocumentsData(options)
  const school = await schoolDetailsOf({ db: options.db, userId: options.userId })
  const workbook = stepDocumentsWorkbook(options.lang, data.step.document, data.students, school?.students ?? 'boys')
  return download(workbook, 'xlsx', data, options.lang)
}

export interface StepDocumentsSummaryOptions {
  readonly db: Db
  readonly userId: string
  readonly stored: StoredAbsence
  /** The teacher's ladder when the caller has read it already. */
  readonly ladder?: readonly LadderStep[]
}

/** A step as the report's block lists it: its place, days, document, how many students are at it and their classrooms. */
export interface StepSummary {
  readonly number: number
  readonly days: number
  readonly name: string | null
  readonly document: LadderDocument
  readonly students: number
  /** `grade / classroom` of the step's students, in school order. */
  readonly classrooms: readonly string[]
}

/** Every step of the ladder in force with its count of students, for the report's block. */
export async function stepDocumentsSummary({ db, userId, stored, ladder: given }: StepDocumentsSummaryOptions): Promise<StepSummary[]> {
  const ladder = given ?? (await ladderOf({ db, userId }))
  const tallies = studentsPerStep(await unexcusedDaysTally({ db, stored }), ladder)
  return ladder.map((step, i) => ({
    number: i + 1,
    days: step.days,
    name: step.name,
    document: step.document,
    students: tallies[i]?.students ?? 0,
    classrooms: tallies[i]?.classrooms ?? [],
  }))
}
