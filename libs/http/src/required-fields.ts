import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { buildMessage, IsDefined, IsNotEmpty, IsString, MaxLength, ValidateBy } from 'class-validator';
import { parseIsoDate } from '../../core/src/time';
import { Trim } from './dto-helpers';

/** Absent and null are both "$property is required". */
export const Required = () => IsDefined({ message: '$property is required' });

/** Required text, trimmed, 1 to `max` characters. Listed bottom-up, as stacked decorators apply: the most basic check first. */
export const RequiredText = (max: number, api: ApiPropertyOptions = {}) =>
  applyDecorators(Required(), IsString(), IsNotEmpty(), MaxLength(max), Trim(), ApiProperty({ minLength: 1, maxLength: max, ...api } as ApiPropertyOptions));

/** An ISO 8601 date or date-time, as `parseIsoDate` reads it. */
export const IsIsoDateTime = () =>
  ValidateBy({
    name: 'isIsoDateTime',
    validator: {
      validate: (value) => parseIsoDate(value) !== null,
      defaultMessage: buildMessage((each) => `${each}$property must be an ISO 8601 date or date-time`),
    },
  });
