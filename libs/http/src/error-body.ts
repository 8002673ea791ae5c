import { STATUS_CODES } from 'node:http';
import { ViolationDetail } from '../../core/src/errors';

/** The one error shape Vigil answers with. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  details?: ViolationDetail[];
  requestId?: string;
}

export function errorBody(statusCode: number, message: string, extra: Partial<ErrorBody> = {}): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...extra };
}
