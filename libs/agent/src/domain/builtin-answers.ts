import { IncidentDetails } from './agent-data-source';
import {
  AvailabilityOutput,
  ChecksOutput,
  DraftOutput,
  EventsOutput,
  IncidentBrief,
  OpenIncidentsOutput,
  PageSummaryOutput,
  PagesOutput,
  WhatsDownOutput,
} from './agent-tools';

/** What the builtin provider can answer, said whenever it cannot answer something. */
const CAPABILITIES = [
  'what is down right now (failing heartbeat checks, services hit by open incidents)',
  'which incidents are open, and the details of one by its name or id (its timeline, and what caused it)',
  'incidents opened, resolved or open in a window ("resolved in the last 7 days", "incidents last week", "in February")',
  'what failed in a window ("what failed yesterday?")',
  'a summary of your status pages',
  'the availability of a heartbeat check over a window (e.g. "availability of nightly-backup over the last 7 days")',
  'the recent heartbeat events of a check',
  'a draft of the next update for an incident (as text: I never post or change anything)',
];

export function capabilitiesAnswer(): string {
  return `I can answer questions about this account's data:\n${CAPABILITIES.map((c) => `- ${c}`).join('\n')}`;
}

export function notUnderstoodAnswer(): string {
  return (
    "I can't answer that: this built-in assistant recognises a fixed set of questions and found none in yours " +
    "(it has no general knowledge and cannot see other accounts).\n\n" +
    `${capabilitiesAnswer()}\n\nFor example: "What is down right now?" or "Which incidents are open?"`
  );
}

/** Said when a tool's list of checks or incidents was cut at its limit. */
export const INCOMPLETE_NOTE = 'This account has more checks or incidents than I looked at; the list may be incomplete.';

export const READ_ONLY_NOTE = "I can only read this account's data: I can't create, change, resolve or post anything.";

export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const percent = (ratio: number) => `${(Math.round(ratio * 10_000) / 100).toString()}%`;
const quoted = (name: string) => `"${name}"`;

function incidentLine(incident: IncidentBrief): string {
  const services = incident.services.length > 0 ? ` — affects ${incident.services.join(', ')}` : '';
  const latest = incident.latestUpdate ? `; latest update (${incident.latestUpdate.publishedAt}): ${oneLine(incident.latestUpdate.description, 200)}` : '';
  return `- ${quoted(incident.name)} (${incident.severity}, ${incident.status}, opened ${incident.created_at})${services}${latest}`;
}

export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function whatsDownAnswer(out: WhatsDownOutput): string {
  const lines: string[] = [];
  if (out.failingChecks.length === 0 && out.degradedServices.length === 0) {
    const checks = out.activatedChecks === 0 ? 'no heartbeat check is active' : `all ${plural(out.activatedChecks, 'active heartbeat check')} are passing`;
    lines.push(`Nothing is down right now: ${checks} and no open incident affects a service.`);
    if (out.openIncidents > 0) lines.push(`(${plural(out.openIncidents, 'incident is', 'incidents are')} open without naming a service.)`);
    return lines.join('\n');
  }
  const failing = out.failingChecks.length === 0 ? 'no heartbeat check is failing' : `${plural(out.failingChecks.length, 'heartbeat check is', 'heartbeat checks are')} failing`;
  const services =
    out.degradedServices.length === 0
      ? 'no service is affected by an open incident'
      : `${plural(out.degradedServices.length, 'service is', 'services are')} affected by open incidents`;
  lines.push(`Right now ${failing} and ${services}.`);
  if (out.failingChecks.length > 0) {
    lines.push('', 'Failing checks:');
    for (const check of out.failingChecks) {
      lines.push(`- ${quoted(check.name)}: last FAILING event at ${check.lastFailingAt}${check.muted ? ' (muted: no alerts are sent)' : ''}`);
    }
  }
  if (out.degradedServices.length > 0) {
    lines.push('', 'Affected services:');
    for (const service of out.degradedServices) {
      const incidents = service.incidents.map((i) => `${quoted(i.name)} (${i.severity}, ${i.status})`).join(', ');
      lines.push(`- ${service.name}: ${service.status} — ${incidents}`);
    }
  }
  if (out.checksCut || out.incidentsCut) lines.push('', INCOMPLETE_NOTE);
  return lines.join('\n');
}

export function openIncidentsAnswer(out: OpenIncidentsOutput): string {
  if (out.incidents.length === 0) return 'There are no open incidents.';
  const head = `${plural(out.incidents.length, 'incident is', 'incidents are')} open${out.more ? ' (showing the newest)' : ''}:`;
  return [head, ...out.incidents.map(incidentLine)].join('\n');
}

export function incidentDetailsAnswer(incident: IncidentDetails): string {
  const services = incident.services.map((s) => s.name).join(', ') || 'no service';
  const lines = [
    `Incident ${quoted(incident.name)} (${incident.id})`,
    `- Severity: ${incident.severity}; status: ${incident.status}${incident.status === 'RESOLVED' ? ' (resolved)' : ' (open)'}`,
    `- Services: ${services}`,
    `- Opened ${incident.created_at}, last changed ${incident.updated_at}`,
    '',
    `Timeline (${plural(incident.updates.length, 'update')}):`,
    ...incident.updates.map((u) => `- ${u.publishedAt} ${u.status}: ${oneLine(u.description, 500)}`),
  ];
  return lines.join('\n');
}

function pageAnswer(page: PageSummaryOutput): string {
  const overall = page.overallStatus === 'operational' ? 'all systems operational' : page.overallStatus;
  const lines = [`Status page ${quoted(page.name)} (/status/${page.url}): ${overall}.`];
  if (page.services.length === 0) lines.push('- It shows no services yet.');
  for (const service of page.services) lines.push(`- ${service.name}: ${service.status}`);
  if (page.openIncidents.length > 0) {
    lines.push(`Open incidents (${page.openIncidents.length}):`);
    lines.push(...page.openIncidents.map(incidentLine));
  }
  if (page.recentlyResolved.length > 0) {
    lines.push(`Resolved in the last 7 days: ${page.recentlyResolved.map((i) => quoted(i.name)).join(', ')}`);
  }
  return lines.join('\n');
}

export function statusPagesAnswer(out: PagesOutput): string {
  if (out.pages.length === 0) return 'This account has no status pages.';
  const head = out.pages.length === 1 ? [] : [`This account has ${plural(out.pages.length, 'status page')}${out.more ? ' (showing the newest)' : ''}.`, ''];
  return [...head, out.pages.map(pageAnswer).join('\n\n')].join('\n');
}

export function checksAnswer(out: ChecksOutput): string {
  if (out.checks.length === 0) return 'This account has no heartbeat checks.';
  const lines = [`This account has ${plural(out.checks.length, 'heartbeat check')}${out.more ? ' (showing the newest)' : ''}:`];
  for (const check of out.checks) {
    const last = check.lastEvent ? `, last event ${check.lastEvent.state} at ${check.lastEvent.timestamp}` : '';
    lines.push(`- ${quoted(check.name)}: ${check.state}${check.muted ? ' (muted)' : ''}${last}`);
  }
  return lines.join('\n');
}

export function availabilityAnswer(out: AvailabilityOutput, windowLabel: string): string {
  const { currentPeriod, previousPeriod } = out.successRatio;
  const span = `${windowLabel} (${out.window.startTime} to ${out.window.endTime})`;
  if (currentPeriod === undefined) {
    return `Check ${quoted(out.check.name)} recorded no heartbeat events in ${span}, so there is no availability figure for it.`;
  }
  const lines = [
    `Availability of check ${quoted(out.check.name)} over ${span}: ${percent(currentPeriod)} ` +
      `(${plural(out.totalEvents, 'event')}, ${plural(out.failingEvents, 'FAILING')}).`,
  ];
  lines.push(
    previousPeriod === undefined
      ? 'The period of equal length before it has no events to compare with.'
      : `The period of equal length before it: ${percent(previousPeriod)}.`,
  );
  return lines.join('\n');
}

export function eventsAnswer(out: EventsOutput): string {
  if (out.events.length === 0) return `Check ${quoted(out.check.name)} has no heartbeat events yet (state: ${out.check.state}).`;
  const lines = [`The latest ${plural(out.events.length, 'heartbeat event')} of check ${quoted(out.check.name)} (now ${out.check.state}), newest first:`];
  for (const event of out.events) {
    const from = [event.source, event.userAgent].filter((x): x is string => !!x).join(', ');
    lines.push(`- ${event.timestamp} ${event.state}${from ? ` (${oneLine(from, 120)})` : ''}`);
  }
  return lines.join('\n');
}

export function draftAnswer(out: DraftOutput): string {
  return [
    `Here is a draft ${out.status} update for ${quoted(out.incident.name)} (${out.incident.severity}, now ${out.incident.status}). ` +
      'Nothing has been posted; edit it and post it yourself:',
    '',
    out.draft
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n'),
  ].join('\n');
}

export function whichOne(what: string, names: string[], question: string): string {
  if (names.length === 0) return `This account has no ${what}s, so I can't answer ${question}.`;
  return `Which ${what} do you mean? Name one of: ${names.slice(0, 30).map(quoted).join(', ')}${names.length > 30 ? ', …' : ''}.`;
}
