/** How the contact messages are listed: the open ones (not handled), the handled ones, or all. */
export const messageFilters = ['open', 'handled', 'all'] as const
export type MessageFilter = (typeof messageFilters)[number]
