// Pages a guest gets without React in the browser: content that is the same for every visitor,
// whose links and forms work as plain HTML. Such a page's route exports
// `handle = staticForGuests`; app/root.tsx then sends the small enhancement script
// (app/document/enhance.client.ts) instead of React Router's scripts and hydration data, unless the
// visitor is signed in (a teacher's account menu, notifications and dialogs need React).

export const staticForGuests = { staticForGuests: true } as const

export function isStaticForGuests(matches: ReadonlyArray<{ handle?: unknown }>): boolean {
  return matches.some((match) => (match.handle as { staticForGuests?: boolean } | undefined)?.staticForGuests === true)
}
