import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// One stylesheet serves both directions only if it never says left or right.
const physical =
  /(^|[\s;{])(margin|padding|border)-(left|right)\b|(^|[\s;{])(left|right)\s*:|\b(text-align|float|clear)\s*:\s*(left|right)\b|(^|[\s;{])(min-|max-)?(width|height)\s*:/

function cssFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry)
    return statSync(full).isDirectory() ? cssFiles(full) : entry.endsWith('.css') ? [full] : []
  })
}

describe('stylesheets', () => {
  it('use logical properties only', () => {
    const offenders: string[] = []
    for (const file of cssFiles(path.resolve('app'))) {
      const lines = readFileSync(file, 'utf8').split('\n')
      lines.forEach((line, i) => {
        const code = line.replace(/\/\*.*?\*\//g, '')
        // Media queries may test the viewport's width; declarations may not set one.
        if (/^\s*@media/.test(code)) return
        if (physical.test(code)) offenders.push(`${path.relative(process.cwd(), file)}:${i + 1}: ${line.trim()}`)
      })
    }
    expect(offenders).toEqual([])
  })
})
