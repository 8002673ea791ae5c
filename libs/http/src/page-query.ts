import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';

/** A paged list's `limit` and `nextId` query parameters, as the API documents them (same order as written stacked). */
export const ApiPageQuery = () =>
  applyDecorators(ApiQuery({ name: 'nextId', required: false, type: String }), ApiQuery({ name: 'limit', required: false, type: Number }));
