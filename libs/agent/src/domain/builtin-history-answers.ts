import { IncidentDetails } from './agent-data-source';
import { FailuresOutput, IncidentFilter, IncidentsOutput, WindowIncident } from './agent-tool-outputs';
import { INCOMPLETE_NOTE, oneLine, plural } from './builtin-answers';
import { humanSpan, humanTime } from './builtin-time';

const WORDS: Record<string, string> = { INVESTIGATING: 'Investigating', IDENTIFIED: 'Identified', MONITORING: 'Monitoring', RESOLVED: 'Resolved' };
const statusWord = (status: string) => WORDS[status] ?? status;

function windowIncidentLine(incident: WindowIncident): string {
  const services = incident.services.length > 0 ? ` — affects ${incident.services.join(', ')}` : '';
  const when = incident.resolvedAt === null ? `opened ${humanTime(incident.created_at)}, still open` : `opened ${humanTime(incident.created_at)}, resolved ${humanTime(incident.resolvedAt)}`;
  return `- "${incident.name}" (${incident.severity}, ${statusWord(incident.status)}; ${when})${services}`;
}

/** "the last 7 days (Tue, 3 Mar 2026, 15:30 to …)"; a calendar label already says its dates. */
const spanOf = (label: string, window: { startTime: string; endTime: string }) => (label.includes('(') ? label : `${label} (${humanSpan(window.startTime, window.endTime)})`);
/** "in the last 7 days", but "yesterday", "today", "3 days ago". */
const within = (span: string) => (/^(yesterday|today|\d+ days? ago|\w+ days? ago)/.test(span) ? span : `in ${span}`);

const CUT_NOTE = 'I looked at the newest 200 incidents only; older ones may be missing from this answer.';

const FILTER_WORDS: Record<IncidentFilter, [string, string]> = {
  resolved: ['was resolved', 'were resolved'],
  opened: ['was opened', 'were opened'],
  active: ['was open', 'were open'],
};

export function incidentHistoryAnswer(out: IncidentsOutput, label: string): string {
  const span = within(spanOf(label, out.window));
  const [one, many] = FILTER_WORDS[out.filter];
  if (out.incidents.length === 0) return `No incident ${one} ${span}.${out.more ? `\n${CUT_NOTE}` : ''}`;
  const head = `${plural(out.incidents.length, `incident ${one}`, `incidents ${many}`)} ${span}:`;
  return [head, ...out.incidents.map(windowIncidentLine), ...(out.more ? [CUT_NOTE] : [])].join('\n');
}

export function failuresAnswer(out: FailuresOutput, label: string): string {
  const span = within(spanOf(label, out.window));
  const cut = out.checksCut || out.incidentsCut ? ['', INCOMPLETE_NOTE] : [];
  if (out.failedChecks.length === 0 && out.incidents.length === 0) {
    return [`Nothing failed ${span}: no heartbeat check had a failure and no incident was open.`, ...cut].join('\n');
  }
  const lines = [
    `${span[0].toUpperCase()}${span.slice(1)}, ${plural(out.failedChecks.length, 'heartbeat check', 'heartbeat checks')} failed and ${plural(out.incidents.length, 'incident was', 'incidents were')} open.`,
  ];
  if (out.failedChecks.length > 0) {
    lines.push('', 'Checks that failed:');
    for (const check of out.failedChecks) {
      const when = check.failures === 1 ? `at ${humanTime(check.lastAt)}` : `first at ${humanTime(check.firstAt)}, last at ${humanTime(check.lastAt)}`;
      lines.push(`- "${check.name}": ${plural(check.failures, 'failure')}, ${when}`);
    }
  }
  if (out.incidents.length > 0) lines.push('', 'Incidents open during it:', ...out.incidents.map(windowIncidentLine));
  return [...lines, ...cut].join('\n');
}

/** "What caused X": the update that identified the cause, said as the timeline says it, or that none does. */
export function causeAnswer(incident: IncidentDetails): string {
  const identified = incident.updates.filter((u) => u.status === 'IDENTIFIED');
  if (identified.length === 0) {
    return `The updates of "${incident.name}" do not state a cause (none is marked Identified); here is its timeline, which is all I know about it.`;
  }
  const first = identified[0];
  return `The cause of "${incident.name}", as its Identified update (${humanTime(first.publishedAt)}) puts it: ${oneLine(first.description, 500)}`;
}

export function incidentChoices(incidents: WindowIncident[], asked: string): string {
  const head = incidents.length === 1 ? `Only this incident comes close to ${asked}; is it the one you mean?` : `Several incidents could be ${asked}; which one do you mean?`;
  return [head, ...incidents.map(windowIncidentLine), 'Name it in quotes, or give its id.'].join('\n');
}

export function noIncidentNamed(asked: string, recent: WindowIncident[]): string {
  const names = recent.slice(0, 10).map((i) => `"${i.name}"`);
  const list = names.length === 0 ? 'This account has no incidents in the last 400 days.' : `Its most recent incidents: ${names.join(', ')}.`;
  return `I can't answer that: I found no incident of this account matching ${asked}. ${list}`;
}

export function unknownTimeAnswer(words: string): string {
  return (
    `I can't answer that: I don't know which window of time "${words}" means. ` +
    'I understand "today", "yesterday", "3 days ago", "the last 7 days" (or hours, weeks, months), "last week", "this month" and a month name ("in February").'
  );
}
