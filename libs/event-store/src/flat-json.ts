/**
 * A copy of `value` that is exactly what `JSON.parse(JSON.stringify(copy))` gives back, when `value`
 * is a flat object — a plain object whose own enumerable members are all strings, booleans, null or
 * finite numbers other than -0. Anything else (nested values, arrays, dates, `toJSON`, inherited
 * enumerable members, other prototypes) gives undefined, and the caller parses the JSON instead.
 *
 * Why: an appended event's data and metadata are recorded as they will read back from the log. For
 * a ping's flat data that parse was ~1 µs of each ping (docs/benchmarks.md); this copy is ~0.1 µs and
 * shares the strings instead of allocating new ones. Encode the copy, not `value`: getters then run
 * once, and the stored text and the recorded object come from the same values.
 */
export function flatJsonCopy(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const source = value as Record<string, unknown>;
  // Also catches a toJSON added to Object.prototype.
  if (source.toJSON !== undefined) return undefined;
  const copy: Record<string, unknown> = {};
  for (const key in source) {
    // An inherited enumerable member (a polluted prototype) is not encoded; `__proto__` would not be copied as a member.
    if (!Object.hasOwn(source, key) || key === '__proto__') return undefined;
    const member = source[key];
    if (typeof member === 'string' || typeof member === 'boolean' || member === null || (typeof member === 'number' && Number.isFinite(member) && !Object.is(member, -0))) {
      copy[key] = member;
    } else {
      return undefined;
    }
  }
  return copy;
}
