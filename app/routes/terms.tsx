import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { LegalPage } from '#app/features/content/index.ts'
import type { Route } from './+types/terms'

export function loader({ params }: Route.LoaderArgs) {
  return { messages: getMessages(langParam(params), ['terms']) }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'terms', 'terms')

export default function Page() {
  return <LegalPage ns="terms" />
}
