/** IANA time zones and wall-clock arithmetic in them, through Intl (no zone data of our own). */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let found = formatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    // Bounded by the number of zones Intl knows (a few hundred): canonical names only reach here.
    formatters.set(zone, found);
  }
  return found;
}

/**
 * The canonical spelling of an IANA zone name (`europe/berlin` → `Europe/Berlin`), or null when Intl
 * does not know it. Offsets such as `+02:00` are not zone names and give null.
 */
export function canonicalTimeZone(name: unknown): string | null {
  if (typeof name !== 'string' || name.length === 0 || name.length > 64 || /^[+-]/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** A wall-clock time in some zone; month 1–12. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** The wall-clock time at `instant` (ms since epoch) in `zone` (a canonical name). */
export function localTime(instant: number, zone: string): LocalDateTime {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal' && part.type !== 'era') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
    millisecond: ((instant % 1000) + 1000) % 1000,
  };
}

const asUtc = (t: LocalDateTime) => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond);

/** The zone's offset from UTC at `instant`, in ms. */
export function offsetAt(instant: number, zone: string): number {
  return asUtc(localTime(instant, zone)) - Math.floor(instant / 1000) * 1000 - (((instant % 1000) + 1000) % 1000);
}

/**
 * The instant a wall-clock time names in `zone`, disambiguated like Temporal's "compatible": a time
 * that occurs twice (autumn) is its first occurrence, a time skipped by a spring-forward gap is moved
 * forward by the gap (02:30 in a one-hour gap is 03:30). Fields out of range roll over (day 32 is the
 * next month's first), as Date.UTC does.
 */
export function zonedInstant(local: LocalDateTime, zone: string): number {
  const wall = asUtc(local);
  // The offset can only be one of the offsets in force a day either side.
  const before = offsetAt(wall - 86_400_000, zone);
  const after = offsetAt(wall + 86_400_000, zone);
  // No change of offset within a day either side (nearly always): the wall time exists once.
  if (before === after) return wall - before;
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => asUtc(localTime(instant, zone)) === wall)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0];
  // In a gap: read the wall time with the offset before the gap, which lands after it.
  return wall - before;
}
