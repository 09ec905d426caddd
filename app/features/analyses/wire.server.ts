import { wireCount, wireDateTime, wireId } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'

// What every analysis answers with, whatever its tool: its head (id, title, when, the title
// block), a skipped row, and the parts of "what was recognised". The tools' shapes
// (absence/wire.server.ts, grades/wire.server.ts) are built from these.

export const analysisHeadWire = {
  id: wireId,
  title: z.string(),
  createdAt: wireDateTime,
  meta: z.record(z.string(), z.string()).describe('The title block as written, and the sheet’s name'),
}

export const skippedRowWire = z.object({
  sheet: z.string().optional().describe('The sheet’s name (none for a CSV file)'),
  row: z.int().min(1).describe('As Excel numbers it'),
  reason: z.string(),
})

/** What was recognised in the file (docs/noor-layouts.md): sheets, classrooms, the notes. */
export const recognisedBaseWire = {
  sheets: wireCount.describe('Sheets read'),
  sheetsSkipped: wireCount.describe('Sheets that hold no table of the layout (a cover, School Info)'),
  classrooms: wireCount,
  gradeCodes: z.array(z.string()).optional().describe('Grades written as Noor’s codes, kept as written'),
}
