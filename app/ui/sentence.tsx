import { Fragment, type ReactNode } from 'react'

/**
 * A translated sentence whose `{name}` placeholders are elements, not text: how a card number,
 * a serial, a code or an address is kept in its own direction inside the other language's text
 * (`<bdi dir="ltr">` for what always reads left to right, a bare `<bdi>` for a value that may be
 * in either script). Pass the sentence from `t(key)` with these placeholders left unfilled; a
 * placeholder without a value stays as written, as `t` leaves it.
 */
export function Sentence({ text, values }: { text: string; values: Readonly<Record<string, ReactNode>> }) {
  // split with a capture group: the names sit at the odd indexes.
  const parts = text.split(/\{(\w+)\}/)
  return <>{parts.map((part, i) => (i % 2 === 0 ? part : <Fragment key={i}>{part in values ? values[part] : `{${part}}`}</Fragment>))}</>
}

/**
 * A number, code or serial that reads left to right in any page, isolated from the text around
 * it and kept on one line: a card number broken after its second group reads wrongly again.
 */
export function Ltr({ children }: { children: ReactNode }) {
  return (
    <bdi dir="ltr" className="ltr-value">
      {children}
    </bdi>
  )
}
