export * from './index.ts'
export * from './schemas.ts'
export type { AccountContext } from './context.ts'
export {
  answerFullName,
  confirmEmailChange,
  confirmPasswordChange,
  deleteAccount,
  isFullNameToAsk,
  requestEmailChange,
  requestPasswordChange,
  updateProfile,
} from './account-changes.server.ts'
export { AVATAR_MAX_BYTES, AVATAR_MAX_PIXELS, imageTypeOf, storeAvatar, storeSchoolLogo } from './avatar.server.ts'
export { removeSchoolLogo, saveSchoolDetails, schoolDetailsOf, schoolLogoBytes, type SchoolDetails } from './school-details.server.ts'
export {
  CODE_MAX_ATTEMPTS,
  CODE_RESEND_SECONDS,
  CODE_SENDS_PER_HOUR,
  CODE_TTL_SECONDS,
  consumeCode,
  issueCode,
  resendWaitSeconds,
} from './codes.server.ts'
export { codeEmail, sendCodeEmail } from './emails.server.ts'
export {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notify,
  unreadNotificationCount,
} from './notifications.server.ts'
export { dummyVerify, hashPassword, isCommonPassword, verifyPassword } from './passwords.server.ts'
export { requestPasswordReset, resetFlowUserId, resetPassword, RESET_FLOW_TTL_MS, verifyResetCode } from './password-reset.server.ts'
export { activateAccount, findUserByEmail, findUserById, registerUser, resendCode } from './register-user.server.ts'
export { createReview, decideReview, listApprovedReviews, listReviewsByStatus, type ReviewView } from './reviews.server.ts'
export {
  createSession,
  describeDevice,
  findSession,
  listSessions,
  revokeAllSessions,
  revokeOtherSessions,
  revokeSession,
  type CurrentSession,
} from './sessions.server.ts'
export { signIn, type SignInResult } from './sign-in.server.ts'
export { base32Decode, hotp, totpStep } from './totp.server.ts'
export {
  cancelTotpEnrolment,
  completeLoginChallenge,
  confirmTotpEnrolment,
  disableTotp,
  isLoginChallengeOpen,
  LOGIN_CHALLENGE_TTL_MS,
  pendingTotpEnrolment,
  RECOVERY_CODE_COUNT,
  removeSecondFactor,
  startTotpEnrolment,
  unusedRecoveryCodes,
  type TotpEnrolment,
} from './two-factor.server.ts'
export {
  CLEAR_SITE_DATA,
  clearFlashCookie,
  clearResetFlowCookie,
  clearSessionCookie,
  clearTwoFactorCookie,
  endWebSession,
  flashCookie,
  getCurrentSession,
  isPrefetch,
  readFlash,
  readResetFlowToken,
  readTwoFactorToken,
  requireGuest,
  requireUser,
  sessionCookie,
  resetFlowCookie,
  sessionCookieName,
  startWebSession,
  twoFactorCookie,
  withoutFlashOnPrefetch,
  type Flash,
} from './web-session.server.ts'
export { userToJson, userWire, type UserJson, type UserSubscriptionJson } from './user-json.server.ts'
