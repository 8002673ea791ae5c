import fc from 'fast-check';

/** Generators for the route fuzzer (fuzz-routes.e2e.ts), driven by nothing but the OpenAPI document. */

export type Schema = Record<string, any>;

export interface OpenApiDoc {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, Schema> };
}

export interface Operation {
  method: string;
  template: string;
  op: Record<string, any>;
}

/**
 * Ids seen in 2xx answers, by the path parameter that names them (`serviceId`, `pingToken`, …), so that
 * generated path parameters and id fields often name things that exist.
 */
export class IdPool {
  private readonly byKind = new Map<string, string[]>();

  add(kind: string, id: string): void {
    for (const key of [kind, '*']) {
      const ids = this.byKind.get(key) ?? [];
      if (!ids.includes(id)) ids.push(id);
      if (ids.length > 200) ids.shift();
      this.byKind.set(key, ids);
    }
  }

  /** The pool grows as the run goes on; a drawn index keeps the choice itself reproducible. */
  pick(kind: string, index: number, fallback: string): string {
    const ids = this.byKind.get(kind) ?? this.byKind.get('*') ?? [];
    return ids.length === 0 ? fallback : ids[index % ids.length];
  }
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const resolve = (doc: OpenApiDoc, schema: Schema): Schema =>
  schema?.$ref ? resolve(doc, doc.components.schemas[String(schema.$ref).split('/').pop()!]) : (schema ?? {});

const uuidLike = (pool: IdPool, kind = '*') =>
  fc.oneof({ weight: 4, arbitrary: fc.nat().chain((i) => fc.uuid().map((u) => pool.pick(kind, i, u))) }, { weight: 1, arbitrary: fc.uuid() });

const isoDate = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }).map((ms) => new Date(ms).toISOString());

/** The id kind a field probably holds: `serviceId` for itself, `services[].id` → serviceId. */
function hintFor(key: string, parentHint: string | undefined): string | undefined {
  if (key === 'id') return parentHint;
  if (key.endsWith('Id')) return key;
  return key.endsWith('s') ? `${key.slice(0, -1)}Id` : undefined;
}

/**
 * A value the schema's keywords accept. Rules only the server knows (a service must exist) may still
 * refuse it; id fields draw from the pool of the kind their name suggests.
 */
export function validValue(doc: OpenApiDoc, raw: Schema, pool: IdPool, depth = 0, hint?: string): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  if (depth > 6) return fc.constant(null);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s: Schema) => validValue(doc, s, pool, depth + 1, hint)));
  if (schema.allOf) return validValue(doc, schema.allOf[0], pool, depth + 1, hint);
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type: string) => validValue(doc, { ...schema, type }, pool, depth, hint)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const examples = [schema.example, ...(schema.examples ?? [])].filter((e) => e !== undefined);
  const own = ownValue(doc, schema, pool, depth, hint);
  return examples.length > 0 ? fc.oneof(fc.constantFrom(...examples), own) : own;
}

function ownValue(doc: OpenApiDoc, schema: Schema, pool: IdPool, depth: number, hint: string | undefined): fc.Arbitrary<unknown> {
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.oneof(fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 }), fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true }));
    case 'string':
      return stringValue(schema, pool, hint);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
      return fc.array(validValue(doc, schema.items ?? {}, pool, depth + 1, hint), { minLength, maxLength });
    }
    case 'object':
    default: {
      const properties: Record<string, Schema> = schema.properties ?? {};
      if (Object.keys(properties).length === 0) {
        return schema.additionalProperties ? fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) : fc.constant({});
      }
      const shape = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, validValue(doc, s, pool, depth + 1, hintFor(key, hint))]));
      return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((key: string) => key in properties) });
    }
  }
}

function stringValue(schema: Schema, pool: IdPool, hint: string | undefined): fc.Arbitrary<string> {
  if (schema.format === 'uuid' || (hint && !schema.format && !schema.pattern)) return uuidLike(pool, hint);
  if (schema.format === 'date-time' || schema.format === 'date') return isoDate;
  if (schema.format === 'uri') return fc.webUrl();
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 1000));
  const minLength = schema.minLength ?? 0;
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: Math.max(minLength, 1), maxLength: Math.max(minLength, 1, Math.min(schema.maxLength ?? 30, 30)) }) },
    { weight: 1, arbitrary: uuidLike(pool) },
  );
}

/** Values no schema of ours accepts in most places, and those that broke Vigil before (issue 23). */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    0,
    -1,
    1e308,
    '',
    '   ',
    '\u0000',
    '\ud800',
    'a\udfff@example.com',
    'x'.repeat(300),
    'x'.repeat(140_000),
    '__proto__',
    [],
    {},
    JSON.parse('{"__proto__":{"polluted":true}}'),
    JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
    JSON.parse('['.repeat(40) + ']'.repeat(40)),
    Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i])),
  ),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 2, max: 60 }).map((depth) => JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth))),
);

/**
 * A deep copy of `value` with one thing broken at a place `steps` picks (each step an index into the
 * keys or entries of the level below): a key dropped, a value replaced, or an unknown key added.
 */
function breakAt(value: unknown, steps: number[], bad: unknown, how: 'drop' | 'replace' | 'add'): unknown {
  const copy = structuredClone(value) as unknown;
  if (copy === null || typeof copy !== 'object') return bad;
  let parent = copy as Record<string, unknown>;
  for (const [i, step] of steps.entries()) {
    const keys = Object.keys(parent);
    if (keys.length === 0) break;
    const key = keys[step % keys.length];
    const child = parent[key];
    const last = i === steps.length - 1 || child === null || typeof child !== 'object';
    if (!last) {
      parent = child as Record<string, unknown>;
      continue;
    }
    if (how === 'drop') delete parent[key];
    else if (how === 'replace') parent[key] = bad;
    else if (!Array.isArray(parent)) parent[`unknown${step % 3}`] = bad;
    return copy;
  }
  if (!Array.isArray(parent)) parent[`unknown${steps[0] % 3}`] = bad;
  return copy;
}

/** A body: valid per the schema, the same with one thing broken, or not JSON at all. */
export function jsonBody(doc: OpenApiDoc, schema: Schema, pool: IdPool): fc.Arbitrary<{ text: string; type: string }> {
  const valid = validValue(doc, schema, pool);
  const asJson = (value: unknown) => ({ text: JSON.stringify(value) ?? 'null', type: 'application/json' });
  const broken = fc.tuple(valid, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), hostileValue, fc.constantFrom('drop', 'replace', 'add', 'whole')).map(([value, steps, bad, how]) =>
    how === 'whole' ? bad : breakAt(value, steps, bad, how),
  );
  const notJson = fc.oneof(
    valid.chain((value) => fc.nat().map((cut) => ({ text: (JSON.stringify(value) ?? '').slice(0, cut % 40), type: 'application/json' }))),
    fc.constantFrom(
      { text: '', type: 'application/json' },
      { text: '{"a":1,}', type: 'application/json' },
      { text: '['.repeat(5000), type: 'application/json' },
      { text: '['.repeat(10_000) + ']'.repeat(10_000), type: 'application/json' },
      { text: `{"name":"x","extra":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`, type: 'application/json' },
      { text: 'name=x', type: 'application/x-www-form-urlencoded' },
      { text: '{"name":"x"}', type: 'text/plain' },
      { text: '{"name":"x"}', type: 'application/json; charset=latin1' },
    ),
  );
  return fc.oneof({ weight: 3, arbitrary: valid.map(asJson) }, { weight: 3, arbitrary: broken.map(asJson) }, { weight: 1, arbitrary: notJson });
}

/** A path or query value, percent-encoded; lone surrogates (which encodeURIComponent refuses) as their WTF-8 bytes. */
export function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value.replace(/[\s\S]/g, (ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        return '%ED%A0%80';
      }
    });
  }
}

export function pathValue(pool: IdPool, kind: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: uuidLike(pool, kind) },
    { weight: 1, arbitrary: fc.constantFrom('x', 'x'.repeat(257), 'x'.repeat(5000), '..', '%zz', '%00', '%2F', 'null', '-1', '01900000-0000-7000-8000-000000000000', 'ABCDEFAB-CDEF-7ABC-8DEF-ABCDEFABCDEF') },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).map(encode) },
  );
}

export function queryString(doc: OpenApiDoc, parameters: Schema[], pool: IdPool): fc.Arbitrary<string> {
  const query = parameters.filter((p) => p.in === 'query');
  const each = query.map((p) =>
    sometimes(
      fc.oneof(
        { weight: 3, arbitrary: validValue(doc, p.schema ?? {}, pool).map((v) => `${p.name}=${encode(String(v))}`) },
        { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', '0', '101', '2.5', 'abc', '-1', 'x'.repeat(3000), '%zz')).map((v) => `${p.name}=${v === '%zz' ? v : encode(v)}`) },
        { weight: 1, arbitrary: fc.constant(`${p.name}=1&${p.name}=2`) },
      ),
      1,
    ),
  );
  const unknown = sometimes(fc.string({ maxLength: 10 }).map((v) => `unknown=${encode(v)}`));
  return fc.tuple(fc.tuple(...each), unknown).map(([values, extra]) => {
    const parts = [...values, extra].filter((v): v is string => v !== null);
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  });
}

/** A value one time in `1 + absent`, else null (fc.option's freq counts the other way). */
export const sometimes = <T>(arbitrary: fc.Arbitrary<T>, absent = 3): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 1, arbitrary }, { weight: absent, arbitrary: fc.constant(null) });

const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 });

/** The headers the operation documents, plus Authorization: mostly sensible values, sometimes not. */
export function headers(parameters: Schema[], key: string, accountId: string, secured: boolean): fc.Arbitrary<Record<string, string>> {
  const named = new Set(parameters.filter((p) => p.in === 'header').map((p) => String(p.name).toLowerCase()));
  const pick = (name: string, values: fc.Arbitrary<string>, absent = 3) => (named.has(name) ? sometimes(values, absent) : fc.constant(null));
  const auth = secured
    ? fc.oneof({ weight: 8, arbitrary: fc.constant(`Bearer ${key}`) }, { weight: 1, arbitrary: fc.constantFrom('', 'Bearer', 'Bearer nope', `Basic ${key}`, `bearer ${key}`) }, { weight: 1, arbitrary: headerText })
    : sometimes(headerText);
  return fc
    .record({
      authorization: auth,
      'x-service-account': pick('x-service-account', fc.oneof({ weight: 3, arbitrary: fc.constant(accountId) }, { weight: 1, arbitrary: fc.uuid() }, { weight: 1, arbitrary: headerText })),
      'idempotency-key': pick('idempotency-key', fc.oneof(fc.uuid(), headerText)),
      'if-match': pick('if-match', fc.oneof(fc.constantFrom('"0"', '"1"', '"999"', '*', 'W/"0"', '"abc"', '""'), headerText), 6),
      'x-request-id': pick('x-request-id', headerText),
      'user-agent': sometimes(fc.constantFrom('Slackbot-LinkExpanding 1.0', 'curl/8.0', 'x'.repeat(2000))),
    })
    .map((all) => Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null && entry[1] !== '')));
}
