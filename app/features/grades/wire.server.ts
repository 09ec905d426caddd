import { analysisHeadWire, recognisedBaseWire, skippedRowWire } from '#app/features/analyses/index.server.ts'
import { wireCount, wireRate, wireShape } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'

// A grades analysis as the API answers it: its report's own camelCase fields (docs/api.md).

const band = z.object({ key: z.string(), min: z.number().min(0).max(100) })
const percentGroup = z.object({ count: wireCount, average: wireRate.nullable() })
const studentScore = z.object({ name: z.string(), score: z.number() })
const bandCount = z.object({ key: z.string(), count: wireCount, percentage: wireRate.nullable() })
const scoreFigures = {
  students: wireCount,
  absent: wireCount,
  total: z.number(),
  average: wireRate.nullable(),
  highest: z.number().nullable(),
  lowest: z.number().nullable(),
  median: z.number().nullable(),
  stdDev: wireRate.nullable(),
  passRate: wireRate.nullable(),
  bands: z.array(bandCount),
  top: percentGroup,
  weak: percentGroup,
  gap: wireRate.nullable(),
  highest5: z.array(studentScore),
  lowest5: z.array(studentScore),
}

const gradesRecognised = z.object({
  layout: z.enum(['grades-rows', 'report-cards', 'band-summary']),
  ...recognisedBaseWire,
  students: wireCount.nullable().describe('Null for a band summary'),
  assumedMaxima: z
    .record(z.string(), z.number().positive())
    .optional()
    .describe('Report cards without maxima: the maximum assumed per subject'),
})

export const gradesAnalysisWire = wireShape(
  'GradesAnalysis',
  z.object({
    ...analysisHeadWire,
    kind: z.literal('grades'),
    recognised: gradesRecognised.optional().describe('Absent from analyses saved before Noor’s layouts were read'),
    bands: z.array(band),
    subjects: z.array(
      z.object({
        subject: z.string(),
        max: z.number().positive(),
        summary: z.object(scoreFigures),
        byClassroom: z.array(z.object({ grade: z.string(), classroom: z.string(), ...scoreFigures })),
      }),
    ),
    bandSubjects: z
      .array(
        z.object({
          subject: z.string(),
          summary: z.object({ students: wireCount, bands: z.array(bandCount) }),
          byClassroom: z.array(z.object({ grade: z.string(), classroom: z.string(), students: wireCount, bands: z.array(bandCount) })),
        }),
      )
      .optional()
      .describe('A band summary: students per band, no scores (then `subjects` is empty)'),
    skipped: z.array(skippedRowWire),
  }),
)
