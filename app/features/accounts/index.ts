// Client-safe exports. The form schemas (zod) are in ./schemas.ts, so pages without a form load no zod.
export { avatarUrl, displayName, documentName, schoolLogoUrl } from './user-json.ts'
export { AccountMenu } from './account-menu.tsx'
export { ReviewList, type ReviewItem } from './review-list.tsx'
