import { wireCount, wireDay, wireId, wireShape } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { ladderDocuments, type LadderStep } from './ladder.ts'
import { registerStatuses, type RegisterEntry } from './register-status.ts'
import { studentRef, type FollowUpRegisterView } from './register.server.ts'

// The follow-up register as the API answers it (docs/follow-up.md, docs/api.md: snake_case).

const step = {
  step: z.int().min(1).max(8).describe('The step’s position on the ladder (1 = first)'),
  step_days: z.int().min(1).max(200),
  step_name: z.string().nullable().describe('The teacher’s name for the step; null: the document’s standard name'),
  document: z.enum(ladderDocuments),
}

export const registerEntryWire = wireShape(
  'FollowUpEntry',
  z.object({
    id: wireId,
    school_year: z.int().describe('The Gregorian year the school year starts in (2025 for 2025–2026)'),
    student: z.string().describe('Names the student to this API (the same across analyses)'),
    student_name: z.string(),
    student_id: z.string().nullable(),
    grade: z.string(),
    classroom: z.string(),
    ...step,
    unexcused: wireCount.describe('Unexcused days when the document was issued'),
    issued_on: wireDay,
    issued_by: z.string(),
    status: z.enum(registerStatuses),
    notes: z.string(),
  }),
)

export const registerWire = wireShape(
  'FollowUpRegister',
  z.object({
    school_year: z.int(),
    school_years: z.array(z.int()).describe('The school years with analyses or entries, latest first'),
    ladder: z.array(z.object({ days: z.int(), name: z.string().nullable(), document: z.enum(ladderDocuments) })),
    by_classroom: z.array(
      z.object({
        grade: z.string(),
        classroom: z.string(),
        reached: wireCount.describe('Students at a step in the latest analysis'),
        issued: wireCount.describe('Documents recorded'),
        outstanding: wireCount.describe('Students at a step with no document recorded at it (or a later one)'),
      }),
    ),
    outstanding: z.array(
      z.object({
        student: z.string().describe('Names the student to POST follow-up/register'),
        name: z.string(),
        student_id: z.string().nullable(),
        grade: z.string(),
        classroom: z.string(),
        unexcused: wireCount,
        ...step,
        analysis: z.object({ id: wireId, title: z.string(), day: wireDay }).describe('The latest analysis with the student'),
      }),
    ),
    issued: z.array(registerEntryWire),
  }),
)

export function registerEntryJson(e: RegisterEntry) {
  return {
    id: e.id,
    school_year: e.schoolYear,
    student: studentRef(e.studentKey),
    student_name: e.studentName,
    student_id: e.studentId,
    grade: e.grade,
    classroom: e.classroom,
    step: e.step,
    step_days: e.stepDays,
    step_name: e.stepName,
    document: e.document,
    unexcused: e.unexcused,
    issued_on: e.issuedOn,
    issued_by: e.issuedBy,
    status: e.status,
    notes: e.notes,
  }
}

const stepJson = (n: number, s: LadderStep) => ({ step: n, step_days: s.days, step_name: s.name, document: s.document })

export function registerJson(view: FollowUpRegisterView) {
  return {
    school_year: view.schoolYear,
    school_years: [...view.schoolYears],
    ladder: view.ladder.map((s) => ({ days: s.days, name: s.name, document: s.document })),
    by_classroom: view.byClassroom.map((c) => ({
      grade: c.grade,
      classroom: c.classroom,
      reached: c.reached,
      issued: c.issued,
      outstanding: c.outstanding,
    })),
    outstanding: view.outstanding.map((s) => ({
      student: studentRef(s.key),
      name: s.name,
      student_id: s.studentId,
      grade: s.grade,
      classroom: s.classroom,
      unexcused: s.unexcused,
      ...stepJson(s.step, s.ladderStep),
      analysis: { id: s.analysisId, title: s.analysisTitle, day: s.analysisDay },
    })),
    issued: view.issued.map(registerEntryJson),
  }
}
