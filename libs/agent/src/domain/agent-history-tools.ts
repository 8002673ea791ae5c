import { IncidentSummary } from './agent-data-source';
import { INCIDENT_FILTERS, IncidentFilter, IncidentsOutput, FailuresOutput, resolvedAt, windowIncident } from './agent-tool-outputs';
import { optionalEnum, toolParameters, WINDOW_PARAMS, windowOf } from './agent-tool-inputs';
import type { AgentToolDefinition, ToolContext } from './agent-tools';

/** How many incidents the window tools look through (newest first), and how many events per check. */
const MAX_HISTORY_INCIDENTS = 200;
const MAX_HISTORY_CHECKS = 200;
const EVENTS_PER_CHECK = 500;

const iso = (ms: number) => new Date(ms).toISOString();

/** Whether an incident belongs to [start, end] under the filter. */
function inWindow(incident: IncidentSummary, filter: IncidentFilter, start: number, end: number): boolean {
  const opened = Date.parse(incident.created_at);
  const resolvedRaw = resolvedAt(incident);
  const resolved = resolvedRaw === null ? null : Date.parse(resolvedRaw);
  switch (filter) {
    case 'opened':
      return opened >= start && opened <= end;
    case 'resolved':
      return resolved !== null && resolved >= start && resolved <= end;
    case 'active':
      return opened <= end && (resolved === null || resolved >= start);
  }
}

async function incidentsIn(context: ToolContext, filter: IncidentFilter, start: number, end: number) {
  const recent = await context.data.recentIncidents(context.accountId, MAX_HISTORY_INCIDENTS);
  const incidents = recent.items.filter((incident) => inWindow(incident, filter, start, end)).map(windowIncident);
  return { incidents, more: recent.more };
}

/** The tools that look back over a window of time, rather than at the present. */
export const HISTORY_TOOLS: AgentToolDefinition[] = [
  {
    name: 'list_incidents',
    description:
      'Incidents of this account within a window of time, newest first: those open at any time in it (filter "active", the default), opened in it ("opened"), or resolved in it ("resolved"), each with when it was resolved.',
    parameters: toolParameters({ filter: { type: 'string', enum: [...INCIDENT_FILTERS], description: 'Which incidents of the window; default active' }, ...WINDOW_PARAMS }),
    async run(context, input): Promise<IncidentsOutput> {
      const filter = optionalEnum(input, 'filter', INCIDENT_FILTERS, 'active');
      const { start, end } = windowOf(input, context.now);
      const found = await incidentsIn(context, filter, start, end);
      return { window: { startTime: iso(start), endTime: iso(end) }, filter, ...found };
    },
  },
  {
    name: 'failures_in_window',
    description:
      'What failed within a window of time: the heartbeat checks that had FAILING events in it (how many, first and last), and the incidents open at any time in it.',
    parameters: toolParameters({ ...WINDOW_PARAMS }),
    async run(context, input): Promise<FailuresOutput> {
      const { start, end } = windowOf(input, context.now);
      const checks = await context.data.checks(context.accountId, MAX_HISTORY_CHECKS);
      const failedChecks: FailuresOutput['failedChecks'] = [];
      for (const check of checks.items) {
        const events = (await context.data.heartbeatEvents(context.accountId, check.id, { start, end }, EVENTS_PER_CHECK)) ?? [];
        const failing = events.filter((event) => event.state === 'FAILING');
        // Events come newest first.
        if (failing.length > 0) failedChecks.push({ id: check.id, name: check.name, failures: failing.length, firstAt: failing[failing.length - 1].timestamp, lastAt: failing[0].timestamp });
      }
      const incidents = await incidentsIn(context, 'active', start, end);
      return {
        window: { startTime: iso(start), endTime: iso(end) },
        failedChecks,
        incidents: incidents.incidents,
        checksCut: checks.more,
        incidentsCut: incidents.more,
      };
    },
  },
];
