import { Body, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ID_GENERATOR, IdGenerator, isUuid } from '../../../core/src/ids';
import { MaintenanceQuery, MaintenanceWindowBodyDto, MaintenanceWindowView, RunMaintenanceWindowCommand, toConfig, WindowConfig } from '../../../maintenance/src/maintenance.api';
import { ConsoleReads, LIST_LIMIT, when } from '../read/console-reads';
import { ConsoleAccess, ConsoleController, Visit } from './console-access';
import { checkBody, FieldErrors, hasErrors, noticeOf, send, shownErrors } from './form-check';
import { BLANK_WINDOW, phaseOf, readWindowForm, repeatChoices, serviceErrors, windowBody, WindowValues, windowValues } from './maintenance-form';

const NOTICES: Record<string, string> = { planned: 'Maintenance window planned.', saved: 'Maintenance window saved.', ended: 'Maintenance window ended.', deleted: 'Maintenance window deleted.' };
const PHASE_TEXT = { active: 'Active', upcoming: 'Upcoming', repeating: 'Repeating', past: 'Past' };

const isRepeating = (w: MaintenanceWindowView) => w.repeatInterval !== null && w.repeatUnit !== null;

/** Its times; a repeating window in an occurrence says until when this one lasts. */
function whenText(w: MaintenanceWindowView, activeUntil?: Date): string {
  const repeat = isRepeating(w) ? `, repeats every ${w.repeatInterval} ${w.repeatUnit!.toLowerCase()}${w.repeatEndsAt ? ` until ${when(w.repeatEndsAt)}` : ''}` : '';
  const now = activeUntil && isRepeating(w) ? `now until ${when(activeUntil.toISOString())}; first ` : '';
  return `${now}${when(w.startsAt)} – ${when(w.endsAt)}${repeat}`;
}

/** Maintenance windows: the list by phase, planning, editing, ending and deleting one; every write a RunMaintenanceWindowCommand. */
@ConsoleController('maintenance')
export class ConsoleMaintenanceController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly reads: ConsoleReads,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get()
  async list(@Query('notice') notice: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    return this.listPage(reply, 200, visit, BLANK_WINDOW, {}, noticeOf(NOTICES, notice));
  }

  @Post()
  async create(@Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const values = readWindowForm(raw);
    const { config, errors } = await this.check(visit, values);
    if (!config) return this.listPage(reply, 400, visit, values, errors);
    const refused = await send(this.commands, new RunMaintenanceWindowCommand({ type: 'CreateMaintenanceWindow', id: this.ids.next(), accountId: visit.accountId!, config }, visit.actor), 'name');
    if (refused) return this.listPage(reply, 400, visit, values, refused);
    return this.access.done(reply, visit, `/console/maintenance`, 'notice=planned');
  }

  @Get(':id')
  async show(@Param('id') id: string, @Query('notice') notice: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const window = await this.window(visit, id);
    if (!window) return this.notFound(reply, visit);
    return this.windowPage(reply, 200, visit, window, windowValues(window), {}, noticeOf(NOTICES, notice));
  }

  @Post(':id')
  async update(@Param('id') id: string, @Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const window = await this.window(visit, id);
    if (!window) return this.notFound(reply, visit);
    const values = readWindowForm(raw);
    const { config, errors } = await this.check(visit, values);
    if (!config) return this.windowPage(reply, 400, visit, window, values, errors);
    const refused = await send(this.commands, new RunMaintenanceWindowCommand({ type: 'UpdateMaintenanceWindow', id: window.id, accountId: visit.accountId!, config }, visit.actor), 'name');
    if (refused) return this.windowPage(reply, 400, visit, window, values, refused);
    return this.access.done(reply, visit, `/console/maintenance/${window.id}`, 'notice=saved');
  }

  /** Ends an active, non-repeating window now: its end moves to this instant. */
  @Post(':id/end')
  async end(@Param('id') id: string, @Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const window = await this.window(visit, id);
    if (!window) return this.notFound(reply, visit);
    const now = this.clock.now().toISOString();
    if (isRepeating(window) || !(await this.activeNow(visit, now)).has(window.id)) return this.access.message(reply, 409, visit, 'Not active', 'Only an active window that does not repeat can be ended; delete a repeating one, or edit its repeats.');
    const { name, tags, startsAt, repeatInterval, repeatUnit, repeatEndsAt, timezone, serviceIds } = window;
    const config: WindowConfig = { name, tags, startsAt, endsAt: now, repeatInterval, repeatUnit, repeatEndsAt, timezone, serviceIds };
    const refused = await send(this.commands, new RunMaintenanceWindowCommand({ type: 'UpdateMaintenanceWindow', id: window.id, accountId: visit.accountId!, config }, visit.actor), 'form');
    if (refused) return this.access.message(reply, 409, visit, 'Not ended', Object.values(refused)[0]);
    return this.access.done(reply, visit, `/console/maintenance/${window.id}`, 'notice=ended');
  }

  @Post(':id/delete')
  async remove(@Param('id') id: string, @Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const window = await this.window(visit, id);
    if (!window) return this.notFound(reply, visit);
    await this.commands.execute(new RunMaintenanceWindowCommand({ type: 'DeleteMaintenanceWindow', id: window.id, accountId: visit.accountId! }, visit.actor));
    return this.access.done(reply, visit, `/console/maintenance`, 'notice=deleted');
  }

  /** The API's rules for the body, and services of this account only: the window's config, or the errors. */
  private async check(visit: Visit, values: WindowValues): Promise<{ config: WindowConfig | null; errors: FieldErrors }> {
    const { body, errors } = await checkBody(MaintenanceWindowBodyDto, windowBody(values));
    const known = new Set((await this.reads.services(visit.accountId!)).map((s) => s.id));
    const all = { ...serviceErrors(values, known), ...errors };
    return hasErrors(all) ? { config: null, errors: all } : { config: toConfig(body), errors: {} };
  }

  /** The ids of the windows in an occurrence now, with its end. */
  private async activeNow(visit: Visit, now: string): Promise<Map<string, Date>> {
    const occurrences = await this.queries.execute(new MaintenanceQuery({ type: 'WindowsActiveAt', accountId: visit.accountId!, at: now }));
    return new Map(occurrences.map((o) => [o.window.id, o.end]));
  }

  private async window(visit: Visit, id: string): Promise<MaintenanceWindowView | null> {
    if (!visit.accountId || !isUuid(id)) return null;
    const found = await this.queries.execute(new MaintenanceQuery({ type: 'GetMaintenanceWindow', accountId: visit.accountId, id: id.toLowerCase() }));
    return found?.window ?? null;
  }

  private notFound(reply: FastifyReply, visit: Visit) {
    return this.access.message(reply, 404, visit, 'No such maintenance window', 'This account has no maintenance window at this address.');
  }

  private async formView(visit: Visit, values: WindowValues, errors: FieldErrors) {
    const chosen = new Set(values.services);
    const services = await this.reads.services(visit.accountId!);
    return {
      canWrite: visit.canWrite,
      values,
      errors: shownErrors(errors),
      repeatUnits: repeatChoices(values.repeatUnit),
      serviceChoices: services.map((s) => ({ id: s.id, name: s.name, checked: chosen.has(s.id) })),
    };
  }

  private async listPage(reply: FastifyReply, code: number, visit: Visit, values: WindowValues, errors: FieldErrors, notice?: string) {
    if (!visit.accountId) return this.access.noAccount(reply, visit);
    const windows = await this.queries.execute(new MaintenanceQuery({ type: 'ListMaintenanceWindows', accountId: visit.accountId, limit: LIST_LIMIT }));
    const now = this.clock.now().toISOString();
    const active = await this.activeNow(visit, now);
    const groups: Record<string, { id: string; name: string; when: string; startsAt: string }[]> = { active: [], upcoming: [], repeating: [], past: [] };
    for (const w of windows.slice(0, LIST_LIMIT)) groups[phaseOf(w, now, active.has(w.id))].push({ id: w.id, name: w.name, when: whenText(w, active.get(w.id)), startsAt: w.startsAt });
    groups.upcoming.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    groups.past.sort((a, b) => b.startsAt.localeCompare(a.startsAt));
    const view = { ...(await this.formView(visit, values, errors)), groups };
    return this.access.render(reply, code, visit, 'maintenance', { title: 'Maintenance', nav: 'maintenance', notice }, view);
  }

  private async windowPage(reply: FastifyReply, code: number, visit: Visit, window: MaintenanceWindowView, values: WindowValues, errors: FieldErrors, notice?: string) {
    const now = this.clock.now().toISOString();
    const active = await this.activeNow(visit, now);
    const phase = phaseOf(window, now, active.has(window.id));
    const view = { ...(await this.formView(visit, values, errors)), window, phase: PHASE_TEXT[phase], when: whenText(window, active.get(window.id)), canEnd: phase === 'active' && !isRepeating(window) };
    return this.access.render(reply, code, visit, 'maintenance-window', { title: window.name, nav: 'maintenance', notice }, view);
  }
}
