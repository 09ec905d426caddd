export * from './index.ts'
export { loadTeacherHome, RECENT_ON_HOME, type LoadTeacherHomeOptions } from './teacher-home.server.ts'
