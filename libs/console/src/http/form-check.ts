import { CommandBus } from '@nestjs/cqrs';
import { validate } from 'class-validator';
import { ConflictError, PreconditionFailedError, ValidationError, VigilError, ViolationDetail } from '../../../core/src/errors';
import { toDetails, toDto } from '../../../http/src/validation';

/** A form's errors by field (the API's path of the field: `name`, `themeColors.light.linkFontColor`, …). */
export type FieldErrors = Record<string, string>;

/** The first message per path: one error beside each field. */
export function fieldErrors(details: ViolationDetail[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const { path, message } of details) errors[path || 'form'] ??= message;
  return errors;
}

/** A form's values checked by the API's own body class: the instance, and its errors by path (none: valid). */
export async function checkBody<T extends object>(dto: new () => T, raw: Record<string, unknown>): Promise<{ body: T; errors: FieldErrors }> {
  const body = toDto(dto, raw);
  const found = await validate(body, { whitelist: true, forbidUnknownValues: false, validationError: { target: false, value: false } });
  return { body, errors: fieldErrors(toDetails(found, '', raw)) };
}

/**
 * Sends a command; a refusal of the context (4xx) comes back as the form's errors (by path when the decider
 * named fields, else under `fallback`), anything else propagates.
 */
export async function send(commands: CommandBus, command: object, fallback: string): Promise<FieldErrors | null> {
  try {
    await commands.execute(command);
    return null;
  } catch (error) {
    if (!(error instanceof VigilError) || error.statusCode >= 500) throw error;
    if (error instanceof ValidationError && error.details.length > 0) return fieldErrors(error.details);
    if (error instanceof PreconditionFailedError) return { [fallback]: 'Someone changed this since you opened it: reload the page and make your change again.' };
    // A taken address names its field first (`url "acme" is already taken`).
    const taken = error instanceof ConflictError ? /^(\w+) ".*" is already taken$/.exec(error.message) : null;
    return { [taken ? taken[1] : fallback]: error.message };
  }
}

export const hasErrors = (errors: FieldErrors | null): errors is FieldErrors => errors !== null && Object.keys(errors).length > 0;

/** A page's errors, or none to show. */
export const shownErrors = (errors: FieldErrors): FieldErrors | undefined => (hasErrors(errors) ? errors : undefined);

/** The notice a redirect names (`?notice=saved`), from the page's own; anything else shows none. */
export const noticeOf = (notices: Record<string, string>, notice: unknown): string | undefined => (typeof notice === 'string' && Object.hasOwn(notices, notice) ? notices[notice] : undefined);

/** `?account=…&param` or `?param`: a redirect's query that keeps the chosen account. */
export const withParam = (q: string, param: string) => (q ? `${q}&${param}` : `?${param}`);
