import { Get, Inject, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { isUuid } from '../../../core/src/ids';
import { MonitorsQuery, MonitorView } from '../../../monitors/src/monitors.api';
import { when } from '../read/console-reads';
import { MonitorPages } from '../render/monitors-pages';
import { ConsoleAccess, ConsoleController, sendHtml } from './console-access';

const LISTED = 500;
const HOUR = 3_600_000;

const stateOf = (m: MonitorView) => ({ stateClass: m.status.state ?? 'NONE', stateText: m.activated ? (m.status.state ?? 'NO RUN YET') : 'DEACTIVATED' });
const lastRunText = (m: MonitorView) => (m.status.lastRun ? `last run ${when(m.status.lastRun.startedAt)}` : 'no run yet');
const every = (m: MonitorView) => (m.frequency === 0 ? `${m.frequencyOffset} s` : m.frequency % 60 === 0 ? `${m.frequency / 60} h` : `${m.frequency} min`);

/** Monitors, read-only: the list with their states, and a monitor's last run and last 24 hours. */
@ConsoleController('monitors')
export class ConsoleMonitorsController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly pages: MonitorPages,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    if (!visit.accountId) return this.access.noAccount(reply, visit);
    const rows = await this.queries.execute(new MonitorsQuery({ type: 'ListMonitors', accountId: visit.accountId, limit: LISTED }));
    const monitors = rows.slice(0, LISTED).map((m) => ({ id: m.id, name: m.name, checkType: m.checkType, ...stateOf(m), lastRunText: lastRunText(m) }));
    return sendHtml(reply, 200, this.pages.render('monitors', { ...visit.chrome, title: 'Monitors' }, { monitors }));
  }

  @Get(':id')
  async show(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const found = visit.accountId && isUuid(id) ? await this.queries.execute(new MonitorsQuery({ type: 'GetMonitor', accountId: visit.accountId, id: id.toLowerCase() })) : null;
    if (!found || !visit.accountId) return this.access.message(reply, 404, visit, 'No such monitor', 'This account has no monitor at this address.');
    const monitor = found.monitor;
    const now = this.clock.now().getTime();
    const metrics = await this.queries.execute(
      new MonitorsQuery({ type: 'MonitorMetrics', accountId: visit.accountId, ids: [monitor.id], granularity: 'h', from: new Date(Math.floor(now / HOUR) * HOUR - 23 * HOUR).toISOString(), to: new Date(now + HOUR).toISOString() }),
    );
    const view = {
      monitor,
      ...stateOf(monitor),
      everyText: every(monitor),
      locationsText: monitor.locations.join(', '),
      lastRun: monitor.status.lastRun,
      lastRunText: monitor.status.lastRun ? when(monitor.status.lastRun.startedAt) : '',
      day: metrics.get(monitor.id)?.metrics ?? null,
    };
    return sendHtml(reply, 200, this.pages.render('monitor', { ...visit.chrome, title: monitor.name }, view));
  }
}
