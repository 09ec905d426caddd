import { otherLang, type Lang } from '#app/i18n/config.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator, lookup } from '#app/i18n/translate.ts'
import type { XlsxCell, XlsxSheet } from '#app/platform/xlsx/write.server.ts'

// What the tools' downloadable samples share: their words (a missing one fails rather than
// printing its key in a teacher's file) and the sheet that explains every column in both
// languages, whatever the file's language.

export type SampleWords = { word: (key: string) => string; list: (key: string) => string[] }

export function sampleWords(namespace: string, lang: Lang): SampleWords {
  const messages = getMessages(lang, [namespace])
  const { t, tm } = createTranslator(lang, messages)
  const check = (key: string) => {
    if (lookup(messages, `${namespace}.${key}`) === undefined) throw new Error(`Missing ${lang} message ${namespace}.${key}`)
    return `${namespace}.${key}`
  }
  return { word: (key) => t(check(key)), list: (key) => tm<string[]>(check(key)) }
}

export type GuideColumn = { readonly key: string; readonly isRequired: boolean }

/** The explanation of every column in one language, with that language's example values. */
function guideBlock(
  { word, list }: SampleWords,
  columns: readonly GuideColumn[],
  examples: Readonly<Record<string, XlsxCell>>,
): XlsxCell[][] {
  const heading = (key: string) => ({ value: word(`guide.table.${key}`), style: 'header' as const })
  return [
    [{ value: word('guide.heading'), style: 'title' }],
    [heading('column'), heading('required'), heading('example'), heading('aliases'), heading('accepted')],
    ...columns.map((c): XlsxCell[] => [
      { value: word(`headers.${c.key}`), style: 'bold' },
      word(c.isRequired ? 'guide.yes' : 'guide.no'),
      examples[c.key] ?? null,
      word(`guide.columns.${c.key}.aliases`),
      word(`guide.columns.${c.key}.accepted`),
    ]),
    [],
    ...list('guide.notes').map((note) => [note]),
  ]
}

/** The `Columns` sheet: the file's language first, then the other. */
export function guideSheet(
  lang: Lang,
  words: Record<Lang, SampleWords>,
  columns: readonly GuideColumn[],
  examplesFor: (lang: Lang, words: SampleWords) => Readonly<Record<string, XlsxCell>>,
): XlsxSheet {
  const other = otherLang(lang)
  return {
    name: words[lang].word('sheets.columns'),
    rightToLeft: lang === 'ar',
    columns: [{ width: 20 }, { width: 10 }, { width: 34 }, { width: 28 }, { width: 110 }],
    rows: [
      ...guideBlock(words[lang], columns, examplesFor(lang, words[lang])),
      [],
      [],
      ...guideBlock(words[other], columns, examplesFor(other, words[other])),
    ],
  }
}
