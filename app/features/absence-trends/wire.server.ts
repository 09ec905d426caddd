import { ladderDocuments } from '#app/features/follow-up/index.ts'
import { wireCount, wireDateTime, wireDay, wireId, wireRate, wireShape, type Wire } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import type { UploadFigures } from './figures.ts'
import type { AbsenceComparison, AbsenceTrends } from './trends.server.ts'

// Trends and comparisons as the API answers them, in the camelCase of the reports (docs/api.md).

const point = z.object({ attendanceRate: wireRate, unexcused: wireCount.describe('Unexcused days') })

const uploadWire = z.object({
  id: wireId,
  title: z.string(),
  createdAt: wireDateTime,
  from: wireDay.nullable().describe('The period the file covers, when known'),
  to: wireDay.nullable().describe('Where the upload sits on the timeline: the end of its period, else the upload’s day'),
  attendanceRate: wireRate,
  unexcusedRate: wireRate,
  unexcused: wireCount.describe('Unexcused days of all students'),
  students: wireCount,
})

export const absenceTrendsWire = wireShape(
  'AbsenceTrends',
  z
    .object({
      schools: z
        .array(z.object({ school: z.string().nullable().describe('Null: analyses whose file named no school'), analyses: wireCount }))
        .describe('The schools the teacher has absence analyses of'),
      school: z.string().nullable().describe('The school shown'),
      uploads: z.array(uploadWire).describe('Oldest first, the newest twelve'),
      classrooms: z.array(
        z.object({
          grade: z.string(),
          classroom: z.string(),
          points: z.array(point.nullable()).describe('One per upload, in the uploads’ order; null where the classroom is absent'),
        }),
      ),
      students: z
        .array(
          z.object({
            name: z.string(),
            studentId: z.string().nullable(),
            grade: z.string(),
            classroom: z.string(),
            points: z
              .array(z.object({ ...point.shape, grade: z.string(), classroom: z.string() }).nullable())
              .describe('One per upload; null where the student is not in it'),
          }),
        )
        .nullable()
        .describe('With `q`: the students found, each along the uploads (at most ten)'),
    })
    .describe('A school’s absence analyses along time, per classroom and (with a name) per student'),
)

const uploadJson = (u: UploadFigures) => ({
  id: u.id,
  title: u.title,
  createdAt: u.createdAt,
  from: u.from,
  to: u.to,
  attendanceRate: u.attendanceRate,
  unexcusedRate: u.unexcusedRate,
  unexcused: u.unexcused,
  students: u.students,
})

export function absenceTrendsJson(trends: AbsenceTrends): Wire<typeof absenceTrendsWire> {
  return {
    schools: trends.schools.map((s) => ({ school: s.school, analyses: s.analyses })),
    school: trends.school,
    uploads: trends.uploads.map(uploadJson),
    classrooms: trends.classrooms.map((c) => ({
      grade: c.grade,
      classroom: c.classroom,
      points: c.points.map((p) => (p ? { attendanceRate: p.attendanceRate, unexcused: p.unexcused } : null)),
    })),
    students:
      trends.students?.map((s) => ({
        name: s.name,
        studentId: s.studentId,
        grade: s.grade,
        classroom: s.classroom,
        points: s.points.map((p) =>
          p ? { attendanceRate: p.attendanceRate, unexcused: p.unexcused, grade: p.grade, classroom: p.classroom } : null,
        ),
      })) ?? null,
  }
}

const absent = z.object({ absent: wireCount.describe('Excused and unexcused days'), unexcused: wireCount, absenceRate: wireRate })
const who = { name: z.string(), studentId: z.string().nullable(), grade: z.string(), classroom: z.string() }

export const absenceComparisonWire = wireShape(
  'AbsenceComparison',
  z
    .object({
      a: uploadWire,
      b: uploadWire,
      classrooms: z.array(
        z.object({
          grade: z.string(),
          classroom: z.string(),
          a: point.nullable(),
          b: point.nullable(),
          change: z
            .object({ attendanceRate: z.number().describe('Percentage points, b − a'), unexcused: z.int().describe('Days, b − a') })
            .nullable()
            .describe('Null when the classroom is in one analysis only'),
        }),
      ),
      roseMost: z
        .array(
          z.object({
            ...who,
            previousClassroom: z
              .object({ grade: z.string(), classroom: z.string() })
              .nullable()
              .describe('The classroom in `a` when the student moved (matched by ID)'),
            a: absent,
            b: absent,
            change: z.object({ absent: z.int(), unexcused: z.int() }),
          }),
        )
        .describe('The students in both whose days missed rose most, most first (at most ten)'),
      newToStep: z
        .array(
          z.object({
            ...who,
            step: z.int().min(0).describe('The ladder step reached in `b` (0 = the first)'),
            days: z.int().min(1).describe('The step’s unexcused days'),
            document: z.enum(ladderDocuments),
            stepName: z.string().nullable().describe('The step’s name as the teacher wrote it; null: the document’s standard name'),
            unexcused: wireCount,
            previousUnexcused: wireCount.nullable().describe('Null: not in `a`'),
            previousStep: z.int().min(0).nullable(),
          }),
        )
        .describe('Students at a higher step of the teacher’s ladder than in `a`, highest first (at most 100)'),
      newToStepTotal: wireCount,
      students: z.object({
        matched: wireCount.describe('In both'),
        joined: wireCount.describe('Only in `b`'),
        left: wireCount.describe('Only in `a`'),
      }),
    })
    .describe('Two absence analyses compared, `b` read as the later; students matched by ID, else name, grade and classroom'),
)

export function absenceComparisonJson(c: AbsenceComparison): Wire<typeof absenceComparisonWire> {
  return {
    a: uploadJson(c.a),
    b: uploadJson(c.b),
    classrooms: c.classrooms.map((g) => ({ grade: g.grade, classroom: g.classroom, a: g.a, b: g.b, change: g.change })),
    roseMost: c.roseMost.map((s) => ({
      name: s.name,
      studentId: s.studentId,
      grade: s.grade,
      classroom: s.classroom,
      previousClassroom: s.previousClassroom,
      a: s.a,
      b: s.b,
      change: s.change,
    })),
    newToStep: c.newToStep.map((s) => ({
      name: s.name,
      studentId: s.studentId,
      grade: s.grade,
      classroom: s.classroom,
      step: s.step,
      days: s.days,
      document: s.document,
      stepName: s.stepName,
      unexcused: s.unexcused,
      previousUnexcused: s.previousUnexcused,
      previousStep: s.previousStep,
    })),
    newToStepTotal: c.newToStepTotal,
    students: c.students,
  }
}
