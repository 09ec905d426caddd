import { describe, expect, it } from 'vitest'
import type { CellValue, SheetRow } from '#app/platform/xlsx/types.ts'
import { cellText, isBlankCell, locateTable, type TableSpec } from './table.ts'

type Key = 'name' | 'score' | 'note'
type Label = 'school' | 'term'

const spec: TableSpec<Key, Label> = {
  columns: {
    name: { headers: ['اسم الطالب', 'Student name'], required: true },
    score: { headers: ['الدرجة', 'Score'], required: true },
    note: { headers: ['ملاحظة', 'Note'], required: false },
  },
  titleLabels: { school: ['اسم المدرسة', 'School'], term: ['الفصل الدراسي', 'Term'] },
}

/** Rows numbered from `first`, as a sheet would hold them. */
function sheet(lines: CellValue[][], first = 1): SheetRow[] {
  return lines.map((cells, i) => ({ row: first + i, cells }))
}

describe('locateTable', () => {
  it('finds the header row under a title block and maps the columns in any order', () => {
    const rows = sheet([
      ['تقرير'],
      ['اسم المدرسة', 'متوسطة النور'],
      [],
      ['ملاحظة', 'الدرجة', 'عمود آخر', 'اسم الطالب'],
      ['', 90, 'x', 'علي'],
      [null, null, null, null],
      ['جيد', 80, '', 'محمد'],
    ])
    const table = locateTable(rows, spec)
    expect(table).toEqual({
      found: true,
      headerRow: 4,
      columns: { note: 0, score: 1, name: 3 },
      headerLanguage: 'ar',
      title: { school: 'متوسطة النور' },
      rows: [rows[4], rows[6]],
    })
  })

  it('compares headers after normalisation and ignoring Latin case', () => {
    const table = locateTable(
      sheet([
        ['  STUDENT   name ', 'score'],
        ['Ali', 1],
      ]),
      spec,
    )
    expect(table).toMatchObject({ found: true, headerLanguage: 'en', columns: { name: 0, score: 1 } })
    const arabic = locateTable(
      sheet([
        ['اسمُ الطالبِ', 'الـدرجة'],
        ['علي', 1],
      ]),
      spec,
    )
    expect(arabic).toMatchObject({ found: true, columns: { name: 0, score: 1 } })
  })

  it('takes the first row holding every required column, and the first column of a header', () => {
    const table = locateTable(sheet([['Score'], ['Student name', 'Score', 'Score'], ['Ali', 1, 2]]), spec)
    expect(table).toMatchObject({ found: true, headerRow: 2, columns: { name: 0, score: 1 } })
  })

  it('says which required columns the closest row lacks', () => {
    expect(locateTable(sheet([['Title'], ['Student name', 'Marks'], ['Ali', 1]]), spec)).toEqual({
      found: false,
      missing: ['score'],
      closestRow: 2,
      matched: ['name'],
    })
    expect(
      locateTable(
        sheet([
          ['a', 'b'],
          [1, 2],
        ]),
        spec,
      ),
    ).toEqual({ found: false, missing: ['name', 'score'] })
    expect(locateTable([], spec)).toEqual({ found: false, missing: ['name', 'score'] })
  })

  it('looks for the header only within the first 40 rows', () => {
    const filler = Array.from({ length: 40 }, (): CellValue[] => ['...'])
    expect(locateTable(sheet([...filler, ['Student name', 'Score'], ['Ali', 1]]), spec)).toMatchObject({ found: false })
    expect(locateTable(sheet([...filler.slice(1), ['Student name', 'Score'], ['Ali', 1]]), spec)).toMatchObject({
      found: true,
      headerRow: 40,
    })
    expect(
      locateTable(
        sheet(
          [
            ['Student name', 'Score'],
            ['Ali', 1],
          ],
          41,
        ),
        spec,
      ),
    ).toMatchObject({ found: false })
  })

  it('matches a header that contains an accepted text as whole words, the longest winning, `_` read as a space', () => {
    const table = locateTable(
      sheet([
        ['اســـم الطالب', null, 'الدرجة_النهائية', 'ملاحظة المعلم (Note)'],
        ['علي', null, 90, ''],
      ]),
      spec,
    )
    expect(table).toMatchObject({ found: true, columns: { name: 0, score: 2, note: 3 } })
    // `Score` inside `Scored` is not a whole word.
    expect(
      locateTable(
        sheet([
          ['Student name', 'Scored'],
          ['Ali', 1],
        ]),
        spec,
      ),
    ).toMatchObject({ found: false })
  })

  it('reads data under a header merged over several columns from whichever of them holds it', () => {
    const rows = sheet([
      ['Score', null, 'Student name'],
      [null, 90, 'Ali'],
    ])
    const table = locateTable(rows, spec, [{ firstRow: 1, lastRow: 1, firstColumn: 0, lastColumn: 1 }])
    expect(table).toMatchObject({ found: true, rows: [{ row: 2, cells: [90, 90, 'Ali'] }] })
  })

  it('ends the table at a footer line after a blank row, but not at a data row after one', () => {
    const rows = [
      { row: 1, cells: ['Student name', 'Score'] },
      { row: 2, cells: ['Ali', 1] },
      { row: 4, cells: ['Omar', 2] },
      { row: 6, cells: ['School leader: Fahd'] },
      { row: 7, cells: ['Sami', 3] },
    ] satisfies SheetRow[]
    const table = locateTable(rows, spec)
    expect(table).toMatchObject({ found: true })
    expect((table as unknown as { rows: SheetRow[] }).rows.map((r) => r.row)).toEqual([2, 4])
  })

  it('reads a title block written right to left: label, a `:` cell, the value on the `:` side', () => {
    const table = locateTable(
      sheet([
        [null, '1447/04/15 هـ', null, ':', 'إلى تاريخ', null, null, '1447/03/01 هـ', ':', 'اسم المدرسة'],
        ['Student name', 'Score'],
      ]),
      { ...spec, titleLabels: { school: ['اسم المدرسة'], term: ['إلى تاريخ'] } },
    )
    expect(table).toMatchObject({ found: true, title: { school: '1447/03/01 ه', term: '1447/04/15 ه' } })
  })

  it('matches a title label against the whole cell, an English translation beside it dropped', () => {
    const labels = { school: ['اسم المدرسة'], term: ['الصف'] }
    const table = locateTable(
      sheet([
        ['الترتيب على الصف', '3'],
        ['اسم المدرسة / School name', 'النور'],
        ['Student name', 'Score'],
      ]),
      { ...spec, titleLabels: labels },
    )
    expect(table).toMatchObject({ found: true, title: { school: 'النور' } })
    expect((table as { title: object }).title).not.toHaveProperty('term')
  })

  it('reads `label : value` cells and labels followed by their value, several on a row', () => {
    const table = locateTable(
      sheet([
        ['School: Al-Noor School ', null, 'Term', null, 'First'],
        ['الفصل الدراسي:', 'الثاني'],
        ['Student name', 'Score'],
        ['Ali', 1],
      ]),
      spec,
    )
    expect(table).toMatchObject({ found: true, title: { school: 'Al-Noor School', term: 'First' } })
    const arabic = locateTable(
      sheet([
        ['اسم المدرسة : متوسطة النور', 'الفصل الدراسي:', 'الثاني'],
        ['اسم الطالب', 'الدرجة'],
        ['علي', 1],
      ]),
      spec,
    )
    expect(arabic).toMatchObject({ title: { school: 'متوسطة النور', term: 'الثاني' } })
  })

  it('leaves a label without a value out, and writes a date value as ISO', () => {
    const table = locateTable(
      sheet([
        ['School', 'Term'],
        ['Term', { kind: 'date', serial: 45893 }],
        ['Student name', 'Score'],
      ]),
      spec,
    )
    expect(table).toMatchObject({ found: true, title: { term: '2025-08-24' }, rows: [] })
    expect((table as { title: object }).title).not.toHaveProperty('school')
  })

  it('refuses a spec that accepts one header for two columns', () => {
    const bad: TableSpec<'a' | 'b', never> = {
      columns: { a: { headers: ['X'], required: true }, b: { headers: ['x'], required: false } },
      titleLabels: {},
    }
    expect(() => locateTable([], bad)).toThrow(/both a and b/)
  })
})

describe('cells', () => {
  it('reads cells as text', () => {
    expect(cellText('a')).toBe('a')
    expect(cellText(1100720226)).toBe('1100720226')
    expect(cellText(true)).toBe('true')
    expect(cellText(null)).toBe('')
    expect(cellText(undefined)).toBe('')
    expect(cellText({ kind: 'date', serial: 45893 })).toBe('2025-08-24')
  })

  it('tells blank cells', () => {
    expect(isBlankCell(undefined)).toBe(true)
    expect(isBlankCell(null)).toBe(true)
    expect(isBlankCell(' \t')).toBe(true)
    expect(isBlankCell(0)).toBe(false)
    expect(isBlankCell(false)).toBe(false)
    expect(isBlankCell('x')).toBe(false)
  })
})
