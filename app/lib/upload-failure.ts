/** What a page or the API shows when an upload is refused: a message and where it applies. */
export type UploadFailure = {
  status: number
  messageKey: string
  values?: Record<string, string | number>
  missingColumns?: string[]
  /** The tool the file belongs to, when it is the other tool's file ('absence' or 'grades'). */
  otherTool?: string
  skipped?: { row: number; reason: { key: string; values?: Record<string, string | number> } }[]
  retryAfterSeconds?: number
}
