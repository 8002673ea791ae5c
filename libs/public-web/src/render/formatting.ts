const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "20 Nov 2026" (UTC), for a date or a `YYYY-MM-DD` day. */
export function dayText(at: string | Date): string {
  // Day keys are most of a page's dates (the bars): read without a Date.
  const key = typeof at === 'string' ? DAY_KEY.exec(at) : null;
  if (key) return `${Number(key[3])} ${MONTHS[Number(key[2]) - 1]} ${key[1]}`;
  const d = new Date(at);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** "20 Nov 2026, 09:05 UTC". */
export function timeText(at: string | Date): string {
  const d = new Date(at);
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${dayText(d)}, ${hh}:${mm} UTC`;
}

/** "99.31 %", "87.5 %", "100 %". */
export function percentText(value: number): string {
  return `${Number(value.toFixed(2))} %`;
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Capitalised status word: "Investigating". */
export function statusWord(status: string): string {
  return status.charAt(0) + status.slice(1).toLowerCase();
}
