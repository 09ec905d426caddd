import { XlsxError } from '#app/platform/xlsx/types.ts'

/** How many units of work (tags, records) pass between two looks at the clock: a power of two, well under 1 ms of work. */
export const CLOCK_EVERY = 8192

/** The time budget of one read: every container checks it as it goes, so a slow file ends in `timeout`, not a stuck worker. */
export class Clock {
  private readonly deadline: number
  constructor(budgetMs: number) {
    this.deadline = performance.now() + budgetMs
  }
  check() {
    if (performance.now() > this.deadline) throw new XlsxError('timeout')
  }
}
