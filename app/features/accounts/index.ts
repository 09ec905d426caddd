export * from './schemas.ts'
export { avatarUrl, userToJson, type UserJson } from './user-json.ts'
