// Trends across a teacher's absence analyses of one school, and two analyses compared (issue 18,
// docs/absence-trends.md).
export {
  alongTime,
  attendanceOf,
  classroomTimelines,
  compareAnalyses,
  dayOf,
  newToStepLimit,
  riseLimit,
  studentTimelineLimit,
  studentTimelines,
  timelineLimit,
  type ClassroomChange,
  type ClassroomTimeline,
  type Comparison,
  type NewToStep,
  type StudentRise,
  type StudentTimeline,
  type UploadFigures,
  type UploadHead,
} from './figures.ts'
export { AbsenceTrendsView, type TrendsViewData } from './trends-view.tsx'
export { AbsenceCompareView, type CompareViewData } from './compare-view.tsx'
