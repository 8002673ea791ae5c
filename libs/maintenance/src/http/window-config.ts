import { parseIsoDate } from '../../../core/src/time';
import { canonicalTimeZone } from '../../../core/src/time-zone';
import { WindowConfig } from '../domain/maintenance-window.decider';
import { MaintenanceWindowBodyDto } from './maintenance-window.dto';

// The DTO has checked the dates; times are stored in Vigil's one output format.
const instant = (value: string) => parseIsoDate(value)!.toISOString();

/** The validated body as the decider takes it (the API's and the console's forms). */
export function toConfig(body: MaintenanceWindowBodyDto): WindowConfig {
  const zone = body.timezone ?? 'UTC';
  return {
    name: body.name,
    tags: body.tags ?? [],
    startsAt: instant(body.startsAt),
    endsAt: instant(body.endsAt),
    repeatInterval: body.repeatInterval ?? null,
    repeatUnit: body.repeatUnit ?? null,
    repeatEndsAt: body.repeatEndsAt ? instant(body.repeatEndsAt) : null,
    // An unknown zone is kept as sent: the decider names the field.
    timezone: canonicalTimeZone(zone) ?? zone,
    serviceIds: (body.serviceIds ?? []).map((id) => id.toLowerCase()),
  };
}
