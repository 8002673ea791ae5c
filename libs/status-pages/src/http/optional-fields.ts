import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';

const WEB_URL = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_valid_protocol: true };

/** Trimmed; empty (what some clients send for "unset") is null. */
export const EmptyAsNull = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() || null : value));

/** Optional text of at most `max` characters. Listed bottom-up, as stacked decorators apply. */
export const OptionalText = (max: number, api: ApiPropertyOptions = {}) =>
  applyDecorators(MaxLength(max), IsString(), IsOptional(), EmptyAsNull(), ApiPropertyOptional({ type: String, nullable: true, maxLength: max, ...api }));

/** An optional http or https URL; empty is null. */
export const OptionalWebUrl = () =>
  applyDecorators(
    IsUrl(WEB_URL, { message: '$property must be an http or https URL' }),
    MaxLength(2048),
    IsString(),
    IsOptional(),
    EmptyAsNull(),
    ApiPropertyOptional({ type: String, nullable: true, format: 'uri' }),
  );
