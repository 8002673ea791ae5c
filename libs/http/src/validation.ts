import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError as ClassValidationError } from 'class-validator';
import { ValidationError, ViolationDetail } from '../../core/src/errors';

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/** Flattens class-validator's tree into `details` with paths such as `services[0].id`. */
export function toDetails(errors: ClassValidationError[], parent = ''): ViolationDetail[] {
  const out: ViolationDetail[] = [];
  for (const error of errors) {
    const path = joinPath(parent, error.property);
    for (const message of Object.values(error.constraints ?? {})) out.push({ path, message });
    if (error.children?.length) out.push(...toDetails(error.children, path));
  }
  return out;
}

/**
 * Validates bodies against their DTO class: every violation is reported, unknown fields are
 * dropped (existing clients send extras), and a body that is not an object is a 400.
 */
@Injectable()
export class BodyValidationPipe implements PipeTransform {
  /** Synchronous for every parameter but a typed body: most routes have no body, and a promise per parameter shows up in GETs. */
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' || !metadata.metatype || metadata.metatype === Object) return value;
    return this.validateBody(value, metadata.metatype as new () => object);
  }

  private async validateBody(value: unknown, metatype: new () => object): Promise<object> {
    if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ValidationError('Body must be a JSON object', [{ path: '', message: 'expected a JSON object' }]);
    }
    const instance = plainToInstance(metatype, value, { enableImplicitConversion: false });
    const errors = await validate(instance, { whitelist: true, forbidUnknownValues: false, validationError: { target: false, value: false } });
    if (errors.length > 0) throw ValidationError.of(toDetails(errors));
    return instance;
  }
}
