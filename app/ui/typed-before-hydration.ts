// A page paints before its script runs (decision 013), so a teacher may type into a field React
// has not taken over yet. React keeps an input's typed value when it hydrates, but puts a
// textarea that had text from the server back to that text, and a controlled field's state
// still holds the server's value either way. So the browser's entry notes every field whose
// value differs from the server's just before React hydrates, and a component that owns such
// fields asks for it once it has mounted (exam-editor.tsx). Decision 016.

type TextField = HTMLInputElement | HTMLTextAreaElement

const typed = new WeakMap<TextField, string>()

/** Notes what was typed into the page's text fields; call just before hydrating. */
export function noteTypedText(root: ParentNode = document): void {
  for (const field of root.querySelectorAll<TextField>('input, textarea')) {
    if (
      field instanceof HTMLInputElement &&
      ['checkbox', 'radio', 'file', 'hidden', 'submit', 'button', 'reset', 'image'].includes(field.type)
    )
      continue
    if (field.value !== field.defaultValue) typed.set(field, field.value)
  }
}

/**
 * What the teacher typed into `field` before React took it over, or null: the value it holds
 * when that differs from the one React rendered (the latest), else the value noted before
 * hydration (a textarea React has put back).
 */
export function typedText(field: TextField): string | null {
  if (field.value !== field.defaultValue) return field.value
  return typed.get(field) ?? null
}
