const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Record ids taken from a request are checked before they reach a query: anything but a UUID
 * would make PostgreSQL fail the query (a 500) instead of finding nothing (a 404).
 */
export function isUuid(value: string): boolean {
  return UUID.test(value)
}
