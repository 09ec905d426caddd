// The operator area's navigation, in one list: a new page adds its entry here (its path under
// /:lang/admin, and its label's key in the operators locale files, both languages).

export type OperatorNavItem = { path: string; labelKey: string }

export const operatorNav: OperatorNavItem[] = [
  { path: 'admin', labelKey: 'operators.nav.dashboard' },
  { path: 'admin/payments', labelKey: 'operators.nav.payments' },
  { path: 'admin/packages', labelKey: 'operators.nav.packages' },
  { path: 'admin/teachers', labelKey: 'operators.nav.teachers' },
  { path: 'admin/reviews', labelKey: 'operators.nav.reviews' },
  { path: 'admin/messages', labelKey: 'operators.nav.messages' },
  { path: 'admin/audit', labelKey: 'operators.nav.audit' },
]
