import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, validate, ValidationError as ClassValidationError } from 'class-validator';
import { ValidationError, ViolationDetail } from '../../core/src/errors';

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/**
 * What to say of one property: a missing required one is only "x is required" (not every rule an absent
 * value also breaks).
 */
function messagesOf(constraints: Record<string, string>): string[] {
  if (constraints.isDefined) return [constraints.isDefined];
  return Object.values(constraints);
}

/** EachObject's message names the entry ("services[3] must be an object {id}"); its detail points at that entry. */
function entryPath(path: string, message: string): string {
  const index = /^[^\s[]+\[(\d+)\] /.exec(message)?.[1];
  return index === undefined ? path : `${path}[${index}]`;
}

function onlyNestedValidation(error: ClassValidationError): boolean {
  const names = Object.keys(error.constraints ?? {});
  return names.length === 1 && names[0] === 'nestedValidation' && !error.children?.length;
}

/** A named property the body does not carry (absent or null): one "x is required", whatever rules it breaks. */
function missing(error: ClassValidationError, raw: unknown): boolean {
  if (raw === null || typeof raw !== 'object' || /^\d+$/.test(error.property)) return false;
  const value = (raw as Record<string, unknown>)[error.property];
  return (value === undefined || value === null) && Object.keys(error.constraints ?? {}).length > 0;
}

/**
 * Flattens class-validator's tree into `details` with paths such as `services[0].id`. `raw` is the body as
 * received at this level (when given, a field it lacks is reported only as required).
 */
export function toDetails(errors: ClassValidationError[], parent = '', raw?: unknown): ViolationDetail[] {
  const out: ViolationDetail[] = [];
  for (const error of errors) {
    const path = joinPath(parent, error.property);
    const constraints = error.constraints ?? {};
    if (missing(error, raw)) {
      out.push({ path, message: constraints.isDefined ?? `${error.property} is required` });
      continue;
    }
    for (const message of messagesOf(constraints)) out.push({ path: message === constraints.eachObject ? entryPath(path, message) : path, message });
    // EachObject has named the entry that is not an object; class-validator's own word on it is noise.
    const children = constraints.eachObject ? error.children?.filter((child) => !onlyNestedValidation(child)) : error.children;
    const inner = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>)[error.property] : undefined;
    if (children?.length) out.push(...toDetails(children, path, inner));
  }
  return out;
}

type DtoClass = new () => object;

// Where @Type is recorded; class-transformer exports it only from its build directory.
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

/** The properties a DTO declares (any class-validator decorator, @Allow included), by class; computed once. */
const declaredByClass = new Map<Function, Set<string>>();

function declaredProperties(metatype: Function): Set<string> {
  let names = declaredByClass.get(metatype);
  if (!names) {
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
    names = new Set(metadatas.map((metadata) => metadata.propertyName));
    declaredByClass.set(metatype, names);
  }
  return names;
}

/** `@Type` targets that are values, not DTOs. */
const PLAIN_TYPES: Function[] = [Object, String, Number, Boolean, Date];

/**
 * A copy of a plain body holding only the properties its DTO declares, nested DTOs (`@Type`) alike, so
 * that class-transformer, which walks every key it is given, never walks what a client added. The body
 * stage (json-body.ts) has bounded its depth already; this keeps unknown fields out of every later walk.
 */
function pickDeclared(value: unknown, metatype: Function): unknown {
  if (Array.isArray(value)) return value.map((entry) => pickDeclared(entry, metatype));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const name of declaredProperties(metatype)) {
    if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
    const field = (value as Record<string, unknown>)[name];
    const nested = defaultMetadataStorage.findTypeMetadata(metatype, name)?.typeFunction() as Function | undefined;
    out[name] = nested && !PLAIN_TYPES.includes(nested) ? pickDeclared(field, nested) : field;
  }
  return out;
}

/** A body as an instance of its DTO class, built from its declared fields only. */
export function toDto<T extends object>(metatype: new () => T, value: object): T {
  return plainToInstance(metatype, pickDeclared(value, metatype) as object, { enableImplicitConversion: false });
}

/** A body that is not a JSON object is a 400, whatever its DTO. */
export function requireJsonObject(value: unknown): asserts value is object {
  if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ValidationError('Body must be a JSON object', [{ path: '', message: 'expected a JSON object' }]);
  }
}

/** A body as its DTO class, validated: every violation is reported at its path. */
export async function validDto<T extends object>(metatype: new () => T, value: object): Promise<T> {
  const instance = toDto(metatype, value);
  const errors = await validate(instance, { whitelist: true, forbidUnknownValues: false, validationError: { target: false, value: false } });
  if (errors.length > 0) throw ValidationError.of(toDetails(errors, '', value));
  return instance;
}

/**
 * Validates bodies against their DTO class: every violation is reported, unknown fields are
 * dropped before anything walks them (existing clients send extras), and a body that is not an object is a 400.
 */
@Injectable()
export class BodyValidationPipe implements PipeTransform {
  /** Synchronous for every parameter but a typed body: most routes have no body, and a promise per parameter shows up in GETs. */
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' || !metadata.metatype || metadata.metatype === Object) return value;
    requireJsonObject(value);
    return validDto(metadata.metatype as DtoClass, value);
  }
}
