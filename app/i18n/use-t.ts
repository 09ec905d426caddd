import { useMemo } from 'react'
import { useMatches, useRouteLoaderData } from 'react-router'
import { defaultLang, isLang, type Lang } from './config.ts'
import { createTranslator, type Messages, type Translator } from './translate.ts'

type WithMessages = { messages?: Messages; lang?: Lang }

/**
 * The translator of the current page: the messages every matched route sent with its loader
 * data (the root sends `common`, each page its own namespaces), in the page's language.
 */
export function useT(): Translator {
  const matches = useMatches()
  const root = useRouteLoaderData('root') as WithMessages | undefined
  const lang: Lang = isLang(root?.lang) ? root.lang : defaultLang
  return useMemo(() => {
    const merged: Messages = {}
    for (const match of matches) {
      const data = match.loaderData as WithMessages | undefined
      if (data?.messages) Object.assign(merged, data.messages)
    }
    return createTranslator(lang, merged)
  }, [matches, lang])
}

export function useLang(): Lang {
  const root = useRouteLoaderData('root') as WithMessages | undefined
  return isLang(root?.lang) ? root.lang : defaultLang
}
