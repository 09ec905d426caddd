// Client-safe exports of the operator area.
export { operatorNav, type OperatorNavItem } from './nav.ts'
export { TwoFactorFirst } from './two-factor-first.tsx'
export { messageFilters, type MessageFilter } from './message-filters.ts'
