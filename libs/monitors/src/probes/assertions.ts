import { Assertion } from '../domain/monitor-config';

/** `$.a.b[0].c`, `a.b`, `$[1]`: a small JSON path over objects and arrays; undefined when absent. */
export function jsonPath(value: unknown, path: string): unknown {
  const trimmed = path.trim().replace(/^\$/, '');
  if (trimmed === '') return value;
  const steps = trimmed.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let current: unknown = value;
  for (const raw of steps) {
    const step = raw.startsWith('[') ? Number(raw.slice(1, -1)) : raw.replace(/^['"]|['"]$/g, '');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function equal(value: unknown, target: string): boolean {
  if (typeof value === 'number') return Number(target) === value;
  if (typeof value === 'boolean') return String(value) === target;
  return text(value) === target;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

function compare(value: unknown, a: Assertion): boolean {
  switch (a.comparison) {
    case 'EQUALS':
      return equal(value, a.target);
    case 'NOT_EQUALS':
      return !equal(value, a.target);
    case 'HAS_KEY':
      return value !== null && typeof value === 'object' && a.target in value;
    case 'NOT_HAS_KEY':
      return !(value !== null && typeof value === 'object' && a.target in value);
    case 'HAS_VALUE':
      return value !== null && typeof value === 'object' && Object.values(value).some((v) => equal(v, a.target));
    case 'NOT_HAS_VALUE':
      return !(value !== null && typeof value === 'object' && Object.values(value).some((v) => equal(v, a.target)));
    case 'IS_EMPTY':
      return isEmpty(value);
    case 'NOT_EMPTY':
      return !isEmpty(value);
    case 'LESS_THAN':
      return Number(text(value)) < Number(a.target);
    case 'GREATER_THAN':
      return Number(text(value)) > Number(a.target);
    case 'CONTAINS':
      return text(value).includes(a.target);
    case 'NOT_CONTAINS':
      return !text(value).includes(a.target);
    case 'IS_NULL':
      return value === null || value === undefined;
    case 'NOT_NULL':
      return value !== null && value !== undefined;
  }
}

/** The value an assertion reads: the source's fact, then its property (a header name or a JSON path), then its regex's first group. */
function select(facts: Record<string, unknown>, a: Assertion): unknown {
  let value = facts[a.source];
  if (a.source === 'HEADERS' && a.property !== '') {
    value = (value as Record<string, unknown> | undefined)?.[a.property.toLowerCase()];
  } else if (a.property !== '') {
    let parsed = value;
    if (typeof value === 'string') {
      try {
        parsed = JSON.parse(value);
      } catch {
        parsed = undefined;
      }
    }
    value = jsonPath(parsed, a.property);
  }
  if (a.regex) {
    const match = new RegExp(a.regex).exec(text(value));
    value = match ? (match[1] ?? match[0]) : null;
  }
  return value;
}

/** The first assertion that does not hold, described, or null when all hold. */
export function failingAssertion(assertions: Assertion[], facts: Record<string, unknown>): string | null {
  for (const a of assertions) {
    const value = select(facts, a);
    if (!compare(value, a)) {
      const shown = text(value).slice(0, 100);
      return `assertion failed: ${a.source}${a.property ? ` ${a.property}` : ''} ${a.comparison} ${a.target} (got ${shown === '' ? 'nothing' : shown})`;
    }
  }
  return null;
}
