import { PartialType } from '@nestjs/swagger';
import { ValidationError } from '../../../core/src/errors';
import { requireJsonObject, validDto } from '../../../http/src/validation';
import { StatusPageDetailView } from '../read/status-page-directory';
import { StatusPageBodyDto } from './status-page.dto';

/** For the OpenAPI document: every field of the PUT body, each optional. */
export class PatchStatusPageDto extends PartialType(StatusPageBodyDto) {}

/** The fields a client may send, in the PUT body's terms. */
const FIELDS = ['name', 'url', 'cards', 'description', 'customDomain', 'logo', 'logoDark', 'favicon', 'redirectTo', 'defaultTheme', 'themeColors'] as const;

/**
 * The page as a PUT body that would leave it as it is (cards keep their ids). Its themeColors too: the decider
 * keeps a page without colours of its own on the default palette when sent it back.
 */
function asBody(page: StatusPageDetailView): Record<string, unknown> {
  const body: Record<string, unknown> = Object.fromEntries(FIELDS.map((field) => [field, page[field]]));
  body.cards = page.cards.map((card) => ({ id: card.id, name: card.name, services: card.services.map((service) => ({ id: service.id })) }));
  return body;
}

/**
 * A PATCH body laid over the current page and validated as a whole PUT body: only the fields sent change
 * (null unsets an optional one), and every rule of PUT holds for the result, reported at the same paths.
 */
export async function patchedBody(current: StatusPageDetailView, raw: unknown): Promise<StatusPageBodyDto> {
  requireJsonObject(raw);
  const sent = FIELDS.filter((field) => Object.prototype.hasOwnProperty.call(raw, field));
  if (sent.length === 0) throw ValidationError.of([{ path: '', message: `give at least one of ${FIELDS.join(', ')}` }]);
  const merged: Record<string, unknown> = asBody(current);
  for (const field of sent) merged[field] = (raw as Record<string, unknown>)[field];
  return validDto(StatusPageBodyDto, merged);
}
