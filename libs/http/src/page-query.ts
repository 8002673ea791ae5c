import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';

/** A paged list's `limit` and `nextId` query parameters, as the API documents them (same order as written stacked). */
export const ApiPageQuery = () =>
  applyDecorators(ApiQuery({ name: 'nextId', required: false, type: String }), ApiQuery({ name: 'limit', required: false, type: Number }));

/** The same with `limit` described as parseLimit reads it: an integer 1–100, 20 when absent. */
export const ApiLimitedPageQuery = () =>
  applyDecorators(
    ApiQuery({ name: 'nextId', required: false, type: String }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } }),
  );
