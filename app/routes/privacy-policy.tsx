import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { LegalPage } from '#app/features/content/index.ts'
import type { Route } from './+types/privacy-policy'
import { staticForGuests } from '#app/document/static-pages.ts'

export function loader({ params }: Route.LoaderArgs) {
  return { messages: getMessages(langParam(params), ['privacy']) }
}

// Sent to guests without React in the browser (app/document/static-pages.ts).
export const handle = staticForGuests

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'privacy', 'privacy-policy')

export default function Page() {
  return <LegalPage ns="privacy" />
}
