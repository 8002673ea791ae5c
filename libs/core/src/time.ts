/** ISO 8601 UTC with milliseconds and Z, the only time format Vigil writes. */
export function iso(date: Date | number): string {
  return new Date(date).toISOString();
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Parses an ISO 8601 date or date-time; anything else (or an impossible date) gives null. */
export function parseIsoDate(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  if (!ISO_DATE.test(value) && !ISO_DATE_TIME.test(value)) return null;
  const date = new Date(ISO_DATE.test(value) ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime())) return null;
  // Reject roll-overs such as 2026-02-30.
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null;
  return date;
}
