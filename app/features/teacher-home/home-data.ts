// What the home's loader sends to the page (plain JSON: dates as ISO strings).

export type HomeSubscription =
  | { state: 'current'; packageName: string; endsAt: string; daysLeft: number }
  | { state: 'upcoming'; packageName: string; startsAt: string }
  | { state: 'expired'; packageName: string; endsAt: string }
  | { state: 'none' }

export type TeacherHome = {
  subscription: HomeSubscription
  analyses: Array<{ id: string; kind: string; title: string; createdAt: string }>
  exams: Array<{ id: string; title: string; questionCount: number; createdAt: string }>
}
