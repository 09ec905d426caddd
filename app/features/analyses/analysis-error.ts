import { DomainError } from '#app/lib/errors.ts'

/** A message to translate where it is shown: a locale key and the values its placeholders take. */
export interface MessageRef {
  readonly key: string
  readonly values?: Readonly<Record<string, string | number>>
}

/** A data row left out of an analysis: its sheet (none for a CSV file), its number as Excel shows it and why. */
export interface SkippedRow {
  readonly sheet?: string
  readonly row: number
  readonly reason: MessageRef
}

export interface AnalysisErrorDetails {
  /** Values for the message's placeholders. */
  readonly values?: Readonly<Record<string, string | number>>
  /** Column keys the sheet lacks (the page names them in its language). */
  readonly missingColumns?: readonly string[]
  /** The other tool whose file this looks like (a grades file uploaded to the absence tool): the page says so and links to it. */
  readonly otherTool?: string
  /** The first skipped rows, when too many rows were skipped. */
  readonly skipped?: readonly SkippedRow[]
}

/**
 * A workbook an analysis refuses (422, or 413 for a limit): the message key says why, the
 * details say where.
 */
export class AnalysisError extends DomainError {
  constructor(
    messageKey: string,
    public readonly details: AnalysisErrorDetails = {},
    status: 413 | 422 = 422,
  ) {
    super(status, messageKey)
    this.name = 'AnalysisError'
  }
}

export function isAnalysisError(error: unknown): error is AnalysisError {
  return error instanceof AnalysisError
}
