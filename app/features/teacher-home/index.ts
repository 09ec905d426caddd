// The signed-in teacher's home (client-safe): the page's component and the data it shows.
export { TeacherHome } from './teacher-home.tsx'
export type { HomeSubscription, TeacherHome as TeacherHomeData } from './home-data.ts'
