import { Inject, Injectable } from '@nestjs/common';
import { validate } from 'class-validator';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ValidationError, ViolationDetail } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { parseIsoDate } from '../../../core/src/time';
import { requireJsonObject, toDetails, toDto } from '../../../http/src/validation';
import { ServiceDirectory, ServiceView } from '../../../status-pages/src/status-pages.api';
import { IncidentCommand, NewUpdate } from '../domain/incident.decider';
import { Severity } from '../domain/incident-timeline';
import { checkServiceRefs } from '../write/service-refs';
import { CreateIncidentDto, IncidentUpdateBodyDto, MAX_SERVICES, PatchIncidentDto, ReplaceIncidentDto } from './incident.dto';

/** How far ahead of the server's clock a publicIncidentUpdateDate may be (client clock skew). */
const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

type Shaped<T> = { value: T; details: ViolationDetail[] };
type CommandOf<T extends IncidentCommand['type']> = Extract<IncidentCommand, { type: T }>;

interface IncidentDetails {
  name: string;
  severity: Severity;
  serviceIds: string[];
}

/**
 * Validates incident bodies in two passes that report together: the shape (class-validator DTOs)
 * and what needs the stores or the clock (services of this account, no duplicates, dates not in
 * the future). Every violation ends up in one 400's `details`.
 */
@Injectable()
export class IncidentBodies {
  constructor(
    private readonly services: ServiceDirectory,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** The create command and the services it names as every response shows them (looked up to validate them): its answer needs no second read. */
  async createWithServices(accountId: string, raw: unknown): Promise<{ command: CommandOf<'CreateIncident'>; services: Map<string, ServiceView> }> {
    const { value, details } = await this.shape(CreateIncidentDto, raw);
    const checked = await this.lookUpServices(accountId, value.services);
    details.push(...checked.details);
    if (Array.isArray(value.incidentUpdates)) {
      value.incidentUpdates.forEach((update, i) => details.push(...this.checkDate(update, `incidentUpdates[${i}].`)));
    }
    this.throwIfAny(details);
    const id = this.ids.next();
    const command: CommandOf<'CreateIncident'> = { type: 'CreateIncident', id, accountId, ...this.incidentDetails(value), updates: value.incidentUpdates.map((u) => this.newUpdate(u)) };
    return { command, services: checked.found };
  }

  async replace(accountId: string, id: string, raw: unknown): Promise<CommandOf<'ChangeIncident'>> {
    const { value, details } = await this.shape(ReplaceIncidentDto, raw);
    details.push(...(await this.lookUpServices(accountId, value.services)).details);
    this.throwIfAny(details);
    return { type: 'ChangeIncident', id, accountId, ...this.incidentDetails(value) };
  }

  async patch(accountId: string, id: string, raw: unknown): Promise<CommandOf<'ChangeIncident'>> {
    const { value, details } = await this.shape(PatchIncidentDto, raw);
    if (value.name === undefined && value.severity === undefined && value.services === undefined) {
      details.push({ path: '', message: 'give at least one of name, severity, services' });
    }
    if (value.services !== undefined) details.push(...(await this.lookUpServices(accountId, value.services)).details);
    this.throwIfAny(details);
    return {
      type: 'ChangeIncident',
      id,
      accountId,
      ...(value.name !== undefined && { name: value.name }),
      ...(value.severity !== undefined && { severity: value.severity }),
      ...(value.services !== undefined && { serviceIds: value.services.map((s) => s.id.toLowerCase()) }),
    };
  }

  /** A new update; a date left out is now. */
  async post(accountId: string, incidentId: string, raw: unknown): Promise<CommandOf<'PostIncidentUpdate'>> {
    return { type: 'PostIncidentUpdate', id: incidentId, accountId, update: this.newUpdate(await this.update(raw)) };
  }

  /** An edit; status and date left out keep their values, notifySubscribers is never changed. */
  async edit(accountId: string, incidentId: string, updateId: string, raw: unknown): Promise<CommandOf<'EditIncidentUpdate'>> {
    const { description, status, publicIncidentUpdateDate } = await this.update(raw);
    const date = publicIncidentUpdateDate == null ? null : parseIsoDate(publicIncidentUpdateDate);
    return { type: 'EditIncidentUpdate', id: incidentId, accountId, updateId, description, status: status ?? null, publicIncidentUpdateDate: date ? date.toISOString() : null };
  }

  private async update(raw: unknown): Promise<IncidentUpdateBodyDto> {
    const { value, details } = await this.shape(IncidentUpdateBodyDto, raw);
    details.push(...this.checkDate(value, ''));
    this.throwIfAny(details);
    return value;
  }

  private async shape<T extends object>(dto: new () => T, raw: unknown): Promise<Shaped<T>> {
    requireJsonObject(raw);
    const value = toDto(dto, raw);
    const errors = await validate(value, { whitelist: true, forbidUnknownValues: false, stopAtFirstError: true, validationError: { target: false, value: false } });
    return { value, details: toDetails(errors, '', raw) };
  }

  /** Too many entries is reported by the shape pass; looking each one up would only cost. */
  private async lookUpServices(accountId: string, services: unknown): Promise<{ details: ViolationDetail[]; found: Map<string, ServiceView> }> {
    if (!Array.isArray(services) || services.length > MAX_SERVICES) return { details: [], found: new Map() };
    return checkServiceRefs(this.services, accountId, services.map((service: unknown) => (service as { id?: unknown } | null)?.id));
  }

  private checkDate(update: { publicIncidentUpdateDate?: unknown } | null | undefined, prefix: string): ViolationDetail[] {
    const date = parseIsoDate(update?.publicIncidentUpdateDate);
    if (!date || date.getTime() <= this.clock.now().getTime() + FUTURE_TOLERANCE_MS) return [];
    return [{ path: `${prefix}publicIncidentUpdateDate`, message: 'publicIncidentUpdateDate must not be more than 5 minutes in the future' }];
  }

  private throwIfAny(details: ViolationDetail[]): void {
    if (details.length > 0) throw ValidationError.of(details);
  }

  private incidentDetails(value: ReplaceIncidentDto): IncidentDetails {
    return { name: value.name, severity: value.severity, serviceIds: value.services.map((s) => s.id.toLowerCase()) };
  }

  private newUpdate(value: IncidentUpdateBodyDto): NewUpdate {
    const date = value.publicIncidentUpdateDate == null ? null : parseIsoDate(value.publicIncidentUpdateDate);
    return {
      id: this.ids.next(),
      description: value.description,
      status: value.status ?? null,
      publicIncidentUpdateDate: (date ?? this.clock.now()).toISOString(),
      notifySubscribers: value.notifySubscribers ?? false,
    };
  }
}
