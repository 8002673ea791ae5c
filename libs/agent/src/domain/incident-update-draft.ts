import { IncidentDetails, IncidentStatus } from './agent-data-source';

const STATUS_WORDS: [IncidentStatus, RegExp][] = [
  ['RESOLVED', /\b(resolved?|fixed|closed?|over|recovered|back to normal)\b/],
  ['MONITORING', /\b(monitor(ing)?|watching|fix (is )?(deployed|rolled out|out))\b/],
  ['IDENTIFIED', /\b(identified|root cause|found the (cause|problem|issue))\b/],
  ['INVESTIGATING', /\b(investigat(e|ing)|looking into)\b/],
];

/** A status named in a sentence ("draft a resolved update"), or null. */
export function statusMentioned(text: string): IncidentStatus | null {
  const lower = text.toLowerCase();
  for (const [status, pattern] of STATUS_WORDS) if (pattern.test(lower)) return status;
  return null;
}

function serviceList(incident: IncidentDetails): string {
  const names = incident.services.map((s) => s.name);
  if (names.length === 0) return 'some of our services';
  if (names.length === 1) return names[0];
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * A public incident update as text, for a person to edit and post: the agent never posts it.
 * Without a status it continues the incident where it stands.
 */
export function draftIncidentUpdate(incident: IncidentDetails, status: IncidentStatus | null, note: string | null): { status: IncidentStatus; text: string } {
  const chosen = status ?? incident.status;
  const services = serviceList(incident);
  const continuing = status === null || status === incident.status;
  let body: string;
  switch (chosen) {
    case 'INVESTIGATING':
      body = continuing
        ? `We are still investigating "${incident.name}", which affects ${services}. We will post another update as soon as we know more.`
        : `We are investigating reports of "${incident.name}", affecting ${services}. We will post another update as soon as we know more.`;
      break;
    case 'IDENTIFIED':
      body = `We have identified the cause of "${incident.name}", affecting ${services}, and are working on a fix. We will post another update once it is in place.`;
      break;
    case 'MONITORING':
      body = `A fix for "${incident.name}" has been put in place. We are monitoring ${services} to make sure the problem does not return.`;
      break;
    case 'RESOLVED':
      body = `"${incident.name}" has been resolved and ${services} ${incident.services.length === 1 ? 'is' : 'are'} operating normally. Thank you for your patience.`;
      break;
  }
  const extra = note?.trim() ? ` ${note.trim().replace(/\s+/g, ' ')}` : '';
  return { status: chosen, text: body + extra };
}
