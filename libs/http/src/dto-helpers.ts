import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsNotEmpty, IsString, MaxLength, ValidateBy } from 'class-validator';

/** Trims strings before validation so " " is empty and "  a " is "a"; other types pass untouched. */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

const isObjectEntry = (entry: unknown) => entry !== null && typeof entry === 'object' && !Array.isArray(entry);

/**
 * Every entry of an array is an object; the message names the first one that is not, with the fields
 * it should have ("services[0] must be an object {id}"). Says nothing of non-arrays, which IsArray reports.
 */
export const EachObject = (fields: string) =>
  ValidateBy({
    name: 'eachObject',
    constraints: [fields],
    validator: {
      validate: (value) => !Array.isArray(value) || value.every(isObjectEntry),
      defaultMessage: (args) => `${args?.property}[${(args?.value as unknown[]).findIndex((entry) => !isObjectEntry(entry))}] must be an object ${fields}`,
    },
  });

/** A required name, trimmed, 1–255 characters. Listed bottom-up, as stacked decorators apply. */
export const RequiredName = (example: string) =>
  applyDecorators(MaxLength(255), IsNotEmpty(), IsString(), Trim(), IsDefined({ message: '$property is required' }), ApiProperty({ minLength: 1, maxLength: 255, example }));
