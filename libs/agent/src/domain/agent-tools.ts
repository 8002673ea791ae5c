import {
  AgentDataSource,
  CheckSummary,
  IncidentDetails,
  IncidentStatus,
} from './agent-data-source';
import { AgentEvent } from './agent-events';
import { HISTORY_TOOLS } from './agent-history-tools';
import { DAY_MS, findByRef, MAX_WINDOW_DAYS, optionalInteger, optionalString, pickOne, requiredString, ToolInputError, toolParameters, ToolParameters, WINDOW_PARAMS, windowOf } from './agent-tool-inputs';
import {
  AvailabilityOutput,
  checkState,
  ChecksOutput,
  DraftOutput,
  EventsOutput,
  incidentBrief,
  IncidentOutput,
  OpenIncidentsOutput,
  PagesOutput,
  summarizePage,
  WhatsDownOutput,
} from './agent-tool-outputs';
import { draftIncidentUpdate } from './incident-update-draft';
import { ServiceStatus, statusOfSeverity, worst } from './service-status';

export * from './agent-tool-outputs';
export { DAY_MS, findByRef, MAX_WINDOW_DAYS, ToolInputError } from './agent-tool-inputs';

/** How many of each thing a tool looks at; an account with more is told the list was cut. */
const MAX_CHECKS = 200;
const MAX_PAGES = 50;
const MAX_INCIDENTS = 50;
const INCIDENT_STATUSES: IncidentStatus[] = ['INVESTIGATING', 'IDENTIFIED', 'MONITORING', 'RESOLVED'];

export interface ToolContext {
  data: AgentDataSource;
  accountId: string;
  now: Date;
}

export interface AgentToolDefinition {
  name: string;
  description: string;
  parameters: ToolParameters;
  run(context: ToolContext, input: Record<string, unknown>): Promise<unknown>;
}

async function resolveCheck(context: ToolContext, ref: string): Promise<CheckSummary> {
  const { items } = await context.data.checks(context.accountId, MAX_CHECKS);
  return pickOne(findByRef(items, ref), ref, 'check', items);
}

async function resolveIncident(context: ToolContext, ref: string): Promise<IncidentDetails> {
  const byId = await context.data.incident(context.accountId, ref.toLowerCase());
  if (byId) return byId;
  const { items } = await context.data.recentIncidents(context.accountId, MAX_INCIDENTS);
  const matches = findByRef(items, ref);
  // Prefer an open one when a name was reused for an old, resolved incident.
  const open = matches.filter((m) => m.status !== 'RESOLVED');
  const chosen = pickOne(open.length === 1 ? open : matches, ref, 'incident', items);
  const details = await context.data.incident(context.accountId, chosen.id);
  if (!details) throw new ToolInputError(`Incident "${ref}" was not found`);
  return details;
}

const CHECK_PARAM = { type: 'string', description: 'The heartbeat check: its id or its name' };

// ---- the tools

const AGENT_TOOLS: AgentToolDefinition[] = [
  {
    name: 'whats_down',
    description:
      'What is down right now in this account: heartbeat checks whose latest event is FAILING, and services affected by open incidents (with the worst severity).',
    parameters: toolParameters({}),
    async run(context): Promise<WhatsDownOutput> {
      const [checks, open] = await Promise.all([
        context.data.checks(context.accountId, MAX_CHECKS),
        context.data.openIncidents(context.accountId, MAX_INCIDENTS),
      ]);
      const failing = checks.items.filter((check) => checkState(check) === 'failing');
      const services = new Map<string, WhatsDownOutput['degradedServices'][number]>();
      for (const incident of open.items) {
        for (const service of incident.services) {
          const entry = services.get(service.id) ?? { id: service.id, name: service.name, status: 'operational' as ServiceStatus, incidents: [] };
          entry.status = worst(entry.status, statusOfSeverity(incident.severity));
          entry.incidents.push(incidentBrief(incident));
          services.set(service.id, entry);
        }
      }
      return {
        failingChecks: failing.map((check) => ({ id: check.id, name: check.name, muted: check.muted, lastFailingAt: check.lastEvent!.timestamp })),
        degradedServices: [...services.values()],
        openIncidents: open.items.length,
        activatedChecks: checks.items.filter((check) => check.activated).length,
        checksCut: checks.more,
        incidentsCut: open.more,
      };
    },
  },
  {
    name: 'list_open_incidents',
    description: 'The open (not RESOLVED) incidents of this account, newest first, with their services, severity and latest update.',
    parameters: toolParameters({ limit: { type: 'integer', minimum: 1, maximum: MAX_INCIDENTS, description: 'How many, default 20' } }),
    async run(context, input): Promise<OpenIncidentsOutput> {
      const limit = optionalInteger(input, 'limit', 1, MAX_INCIDENTS, 20);
      const open = await context.data.openIncidents(context.accountId, limit);
      return { incidents: open.items.map(incidentBrief), more: open.more };
    },
  },
  {
    name: 'get_incident',
    description: 'One incident of this account with its whole update timeline, by id or by name.',
    parameters: toolParameters({ incident: { type: 'string', description: 'The incident id or name' } }, ['incident']),
    async run(context, input): Promise<IncidentOutput> {
      return { incident: await resolveIncident(context, requiredString(input, 'incident')) };
    },
  },
  {
    name: 'status_page_summary',
    description:
      'Summary of the status pages of this account (or of one, by id, url or name): overall status, each service with its status, open and recently resolved incidents.',
    parameters: toolParameters({ statusPage: { type: 'string', description: 'A page id, url slug or name; omit for every page' } }),
    async run(context, input): Promise<PagesOutput> {
      const ref = optionalString(input, 'statusPage');
      const pages = await context.data.statusPages(context.accountId, MAX_PAGES);
      if (ref === null) return { pages: pages.items.map(summarizePage), more: pages.more };
      const page = pickOne(findByRef(pages.items, ref, (p) => [p.url]), ref, 'status page', pages.items);
      return { pages: [summarizePage(page)], more: false };
    },
  },
  {
    name: 'list_checks',
    description: 'The heartbeat checks of this account with their current state (up, failing, waiting for first ping, paused) and latest event.',
    parameters: toolParameters({}),
    async run(context): Promise<ChecksOutput> {
      const checks = await context.data.checks(context.accountId, MAX_CHECKS);
      return {
        checks: checks.items.map((check) => ({
          id: check.id,
          name: check.name,
          state: checkState(check),
          muted: check.muted,
          periodSeconds: check.periodSeconds,
          graceSeconds: check.graceSeconds,
          lastEvent: check.lastEvent,
        })),
        more: checks.more,
      };
    },
  },
  {
    name: 'check_availability',
    description:
      'Availability of one heartbeat check over a window: the share of its events that were not FAILING, for the window and the window of equal length before it. Default window: the last 24 hours.',
    parameters: toolParameters({ check: CHECK_PARAM, ...WINDOW_PARAMS }, ['check']),
    async run(context, input): Promise<AvailabilityOutput> {
      const check = await resolveCheck(context, requiredString(input, 'check'));
      const window = windowOf(input, context.now);
      const availability = await context.data.availability(context.accountId, check.id, window);
      if (!availability) throw new ToolInputError('That check no longer exists');
      const ratio = availability.successRatio.currentPeriod;
      return {
        check: { id: check.id, name: check.name },
        window: { startTime: new Date(window.start).toISOString(), endTime: new Date(window.end).toISOString() },
        totalEvents: availability.totalEntitiesCurrentPeriod,
        failingEvents: ratio === undefined ? 0 : Math.round(availability.totalEntitiesCurrentPeriod * (1 - ratio)),
        successRatio: availability.successRatio,
      };
    },
  },
  {
    name: 'recent_heartbeat_events',
    description: 'The latest heartbeat events of one check (pings with their state, and FAILING events), newest first.',
    parameters: toolParameters({ check: CHECK_PARAM, limit: { type: 'integer', minimum: 1, maximum: 50, description: 'How many, default 10' } }, ['check']),
    async run(context, input): Promise<EventsOutput> {
      const check = await resolveCheck(context, requiredString(input, 'check'));
      const limit = optionalInteger(input, 'limit', 1, 50, 10);
      const now = context.now.getTime();
      const events = await context.data.heartbeatEvents(context.accountId, check.id, { start: now - MAX_WINDOW_DAYS * DAY_MS, end: now }, limit);
      if (!events) throw new ToolInputError('That check no longer exists');
      return { check: { id: check.id, name: check.name, state: checkState(check) }, events };
    },
  },
  {
    name: 'draft_incident_update',
    description:
      'Drafts the text of a public update for an incident of this account (by id or name; default: the newest open incident). It only returns text: nothing is posted.',
    parameters: toolParameters({
      incident: { type: 'string', description: 'The incident id or name; omit for the newest open incident' },
      status: { type: 'string', enum: INCIDENT_STATUSES, description: 'Status of the drafted update; default the current one' },
      note: { type: 'string', description: 'A sentence to add to the draft' },
    }),
    async run(context, input): Promise<DraftOutput> {
      const ref = optionalString(input, 'incident');
      const statusRaw = optionalString(input, 'status');
      const status = statusRaw === null ? null : (statusRaw.toUpperCase() as IncidentStatus);
      if (status !== null && !INCIDENT_STATUSES.includes(status)) throw new ToolInputError(`status must be one of ${INCIDENT_STATUSES.join(', ')}`);
      let incident: IncidentDetails | null;
      if (ref !== null) incident = await resolveIncident(context, ref);
      else {
        const [newest] = (await context.data.openIncidents(context.accountId, 1)).items;
        if (!newest) throw new ToolInputError('This account has no open incident; name the incident to draft an update for');
        incident = await context.data.incident(context.accountId, newest.id);
        if (!incident) throw new ToolInputError('The newest open incident was not found');
      }
      const draft = draftIncidentUpdate(incident, status, optionalString(input, 'note', 2000));
      return {
        incident: { id: incident.id, name: incident.name, severity: incident.severity, status: incident.status },
        status: draft.status,
        draft: draft.text,
        posted: false,
      };
    },
  },
  ...HISTORY_TOOLS,
];

export type ToolOutcome = { ok: true; output: unknown } | { ok: false; errorText: string };

/**
 * The tools bound to one account: every call reads that account's data and nothing else. A call
 * is announced and answered as agent events, so every provider shows its tools the same way.
 */
export class AgentToolbox {
  private readonly byName = new Map(AGENT_TOOLS.map((tool) => [tool.name, tool]));

  constructor(
    private readonly context: ToolContext,
    private readonly onToolError: (error: unknown) => void = () => undefined,
  ) {}

  get definitions(): readonly AgentToolDefinition[] {
    return AGENT_TOOLS;
  }

  async call(name: string, input: unknown): Promise<ToolOutcome> {
    const tool = this.byName.get(name);
    if (!tool) return { ok: false, errorText: `There is no tool named "${name}"` };
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return { ok: false, errorText: 'Tool input must be a JSON object' };
    try {
      return { ok: true, output: await tool.run(this.context, input as Record<string, unknown>) };
    } catch (error) {
      if (error instanceof ToolInputError) return { ok: false, errorText: error.message };
      this.onToolError(error);
      return { ok: false, errorText: `The ${name} tool failed to read the data; try again shortly` };
    }
  }

  /** Runs one tool call as events: the call, then its result or error. Returns the outcome. */
  async *invoke(toolCallId: string, name: string, input: unknown): AsyncGenerator<AgentEvent, ToolOutcome> {
    yield { type: 'tool-call', toolCallId, toolName: name, input };
    const outcome = await this.call(name, input);
    if (outcome.ok) yield { type: 'tool-result', toolCallId, output: outcome.output };
    else yield { type: 'tool-error', toolCallId, errorText: outcome.errorText };
    return outcome;
  }
}
