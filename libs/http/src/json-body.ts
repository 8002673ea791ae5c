import { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError, ViolationDetail } from '../../core/src/errors';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * What a JSON body may hold, checked once, right after JSON.parse (which is iterative in V8 and so safe
 * at any depth) and before any recursive code — class-transformer, class-validator, our own walks —
 * sees it. Generous for every real body (the deepest DTO is about 5 levels; a page with 50 cards of 50
 * services is some 2,600 values), small enough that nothing later can recurse or loop without bound.
 */
export const BODY_LIMITS = {
  /** Objects and arrays nested in one another, the body itself being level 1. */
  maxDepth: 32,
  /** Keys of one object. */
  maxKeysPerObject: 1000,
  /** Values in the whole body: every object member and array element. */
  maxValues: 20_000,
  /** UTF-16 code units of one string or key (the agent's messages take 100 KB of text in all). */
  maxStringLength: 128 * 1024,
} as const;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** In `u` mode a surrogate pair is one code point, so this matches only a lone (unpaired) surrogate. */
const LONE_SURROGATE = /\p{Cs}/u;

/** A value to look at, with what is needed to name its path if it breaks a rule. */
interface Visit {
  value: unknown;
  parent: Visit | null;
  key: string | number | null;
  depth: number;
}

function pathOf(visit: Visit, key?: string | number): string {
  const keys: (string | number)[] = key === undefined ? [] : [key];
  for (let at: Visit | null = visit; at && at.key !== null; at = at.parent) keys.unshift(at.key);
  let path = '';
  for (const k of keys) path += typeof k === 'number' ? `[${k}]` : path ? `.${k}` : k;
  return path;
}

function stringViolation(text: string): string | null {
  if (text.length > BODY_LIMITS.maxStringLength) return `must be at most ${BODY_LIMITS.maxStringLength} characters`;
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode (it holds a lone UTF-16 surrogate)';
  return null;
}

/**
 * The first rule a parsed body breaks, with its path, or null. Walks with an explicit stack, never
 * by recursion, and stops at the first violation.
 */
export function checkBody(body: unknown): ViolationDetail | null {
  const stack: Visit[] = [{ value: body, parent: null, key: null, depth: 0 }];
  let values = 0;
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      const problem = stringViolation(value);
      if (problem) return { path: pathOf(visit), message: problem };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const depth = visit.depth + 1;
    if (depth > BODY_LIMITS.maxDepth) return { path: pathOf(visit), message: `must not nest objects and arrays deeper than ${BODY_LIMITS.maxDepth} levels` };
    if (Array.isArray(value)) {
      values += value.length;
      if (values > BODY_LIMITS.maxValues) return { path: pathOf(visit), message: `the body must hold at most ${BODY_LIMITS.maxValues} values` };
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: visit, key: i, depth });
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > BODY_LIMITS.maxKeysPerObject) return { path: pathOf(visit), message: `must have at most ${BODY_LIMITS.maxKeysPerObject} keys` };
    values += keys.length;
    if (values > BODY_LIMITS.maxValues) return { path: pathOf(visit), message: `the body must hold at most ${BODY_LIMITS.maxValues} values` };
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      if (FORBIDDEN_KEYS.has(key)) return { path: pathOf(visit, key), message: 'this key is not allowed' };
      const problem = stringViolation(key);
      if (problem) return { path: pathOf(visit), message: `has a key that ${problem}` };
      stack.push({ value: (value as Record<string, unknown>)[key], parent: visit, key, depth });
    }
  }
  return null;
}

/**
 * The one JSON body stage: parsed with JSON.parse (which creates `__proto__` as a plain own key, never
 * a prototype), then held to BODY_LIMITS and refused if any key could poison a prototype further down.
 */
export function registerJsonParser(fastify: FastifyInstance): void {
  // Fastify's defaults (its JSON parser, text/plain) go: any other body type is a 415.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    /^application\/(.+\+)?json(\s*;.*)?$/i,
    { parseAs: 'string', bodyLimit: MAX_BODY_BYTES },
    (_request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return done(new ValidationError('Body is not valid JSON'));
      }
      const violation = checkBody(parsed);
      if (violation) return done(ValidationError.of([violation]));
      done(null, parsed);
    },
  );
}
