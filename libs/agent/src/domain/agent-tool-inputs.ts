import { parseIsoDate } from '../../../core/src/time';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const MAX_WINDOW_DAYS = 400;

/** A tool's input was unusable or named nothing of the account: told to the model, never a crash. */
export class ToolInputError extends Error {}

export function optionalString(input: Record<string, unknown>, name: string, max = 500): string | null {
  const value = input[name];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw new ToolInputError(`${name} must be a string`);
  return value.trim().slice(0, max);
}

export function requiredString(input: Record<string, unknown>, name: string): string {
  const value = optionalString(input, name);
  if (value === null) throw new ToolInputError(`${name} is required`);
  return value;
}

export function optionalInteger(input: Record<string, unknown>, name: string, min: number, max: number, fallback: number): number {
  const value = input[name];
  if (value === undefined || value === null) return fallback;
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
    throw new ToolInputError(`${name} must be a whole number from ${min} to ${max}`);
  }
  return number;
}

export function optionalEnum<T extends string>(input: Record<string, unknown>, name: string, values: readonly T[], fallback: T): T {
  const raw = optionalString(input, name);
  if (raw === null) return fallback;
  const value = raw.toLowerCase() as T;
  if (!values.includes(value)) throw new ToolInputError(`${name} must be one of ${values.join(', ')}`);
  return value;
}

const norm = (text: string) => text.trim().toLowerCase();

/** By id, then exact name, then a single name containing the reference; all case-insensitive. */
export function findByRef<T extends { id: string; name: string }>(items: T[], ref: string, extraKeys: (item: T) => string[] = () => []): T[] {
  const wanted = norm(ref);
  const byId = items.filter((item) => item.id.toLowerCase() === wanted);
  if (byId.length > 0) return byId;
  const exact = items.filter((item) => norm(item.name) === wanted || extraKeys(item).some((key) => norm(key) === wanted));
  if (exact.length > 0) return exact;
  return items.filter((item) => norm(item.name).includes(wanted));
}

export function pickOne<T extends { id: string; name: string }>(matches: T[], ref: string, what: string, all: T[]): T {
  if (matches.length === 1) return matches[0];
  const names = (matches.length > 1 ? matches : all).slice(0, 20).map((item) => `"${item.name}" (${item.id})`);
  if (matches.length > 1) throw new ToolInputError(`"${ref}" matches several ${what}s: ${names.join(', ')}; name one exactly or give its id`);
  throw new ToolInputError(
    all.length === 0 ? `This account has no ${what}s` : `No ${what} of this account matches "${ref}". Its ${what}s: ${names.join(', ')}`,
  );
}

/** [start, end] from ISO times or a number of hours back from now; the last 24 hours by default. */
export function windowOf(input: Record<string, unknown>, now: Date): { start: number; end: number } {
  const endRaw = optionalString(input, 'endTime');
  const startRaw = optionalString(input, 'startTime');
  const end = endRaw === null ? now.getTime() : parseIsoDate(endRaw)?.getTime();
  if (end === undefined) throw new ToolInputError('endTime must be an ISO 8601 date or date-time');
  let start: number;
  if (startRaw !== null) {
    const parsed = parseIsoDate(startRaw);
    if (!parsed) throw new ToolInputError('startTime must be an ISO 8601 date or date-time');
    start = parsed.getTime();
  } else {
    start = end - optionalInteger(input, 'hours', 1, MAX_WINDOW_DAYS * 24, 24) * HOUR_MS;
  }
  if (start >= end) throw new ToolInputError('startTime must be before endTime');
  if (end - start > MAX_WINDOW_DAYS * DAY_MS) throw new ToolInputError(`the window may span at most ${MAX_WINDOW_DAYS} days`);
  return { start, end };
}

/** JSON Schema of a tool's parameters, as chat-completions servers take it. */
export interface ToolParameters {
  type: 'object';
  properties: Record<string, unknown>;
  required?: string[];
  additionalProperties: false;
}

/** Parameters with these properties (the `required` ones among them) and no others. */
export const toolParameters = (properties: Record<string, unknown>, required?: string[]): ToolParameters => ({
  type: 'object',
  properties,
  ...(required && { required }),
  additionalProperties: false,
});

/** The JSON Schema properties of a window, shared by the tools that take one. */
export const WINDOW_PARAMS = {
  hours: { type: 'integer', minimum: 1, maximum: MAX_WINDOW_DAYS * 24, description: 'Window length back from now (or endTime), in hours' },
  startTime: { type: 'string', description: 'ISO 8601 start, instead of hours' },
  endTime: { type: 'string', description: 'ISO 8601 end, default now' },
};
