import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { buildMessage, IsArray, IsDefined, IsNotEmpty, IsString, MaxLength, ValidateBy, ValidateNested } from 'class-validator';
import { parseIsoDate } from '../../core/src/time';
import { EachObject, Trim } from './dto-helpers';

/** Absent and null are both "$property is required". */
export const Required = () => IsDefined({ message: '$property is required' });

/** Required text, trimmed, 1 to `max` characters. Listed bottom-up, as stacked decorators apply: the most basic check first. */
export const RequiredText = (max: number, api: ApiPropertyOptions = {}) =>
  applyDecorators(Required(), IsString(), IsNotEmpty(), MaxLength(max), Trim(), ApiProperty({ minLength: 1, maxLength: max, ...api } as ApiPropertyOptions));

/**
 * A required array of `type` objects, each validated (an entry that is not an object is named with its
 * `fields`), with `checks` of the array itself. EachObject, because ValidateNested alone would also walk
 * into an array nested in the array. Listed bottom-up, as stacked decorators apply.
 */
export const RequiredObjects = (type: () => Function, fields: string, ...checks: PropertyDecorator[]) =>
  applyDecorators(Type(type), ValidateNested({ each: true }), EachObject(fields), ...checks, IsArray(), Required());

/** An ISO 8601 date or date-time, as `parseIsoDate` reads it. */
export const IsIsoDateTime = () =>
  ValidateBy({
    name: 'isIsoDateTime',
    validator: {
      validate: (value) => parseIsoDate(value) !== null,
      defaultMessage: buildMessage((each) => `${each}$property must be an ISO 8601 date or date-time`),
    },
  });
