export * from './index.ts'
export * from './schemas.ts'
export {
  CONTACT_LIMIT_PER_HOUR,
  sendContactMessage,
  type SendContactMessageOptions,
  type SendContactMessageResult,
} from './send-contact-message.server.ts'
export { buildSitemap, robotsTxt } from './seo.server.ts'
