import { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '../../core/src/errors';

export const MAX_BODY_BYTES = 1024 * 1024;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Finds the first forbidden key anywhere in a parsed body, with its path. */
export function findForbiddenKey(value: unknown, path = ''): string | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findForbiddenKey(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const at = path ? `${path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) return at;
      const found = findForbiddenKey((value as Record<string, unknown>)[key], at);
      if (found) return found;
    }
  }
  return null;
}

/**
 * JSON bodies: parsed with JSON.parse (which creates `__proto__` as a plain own key, never a prototype),
 * then refused if any key could poison a prototype further down the line.
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
      const forbidden = findForbiddenKey(parsed);
      if (forbidden) {
        return done(ValidationError.of([{ path: forbidden, message: 'this key is not allowed' }]));
      }
      done(null, parsed);
    },
  );
}
