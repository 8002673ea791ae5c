import { IntentKind, mentionedName, understand } from './builtin-intents';
import { parseWindow } from './builtin-time';

const NOW = new Date('2026-03-10T15:30:00.000Z');
const intents = (text: string) => understand(text, NOW).intents;

describe('understand: the common questions', () => {
  it.each<[string, IntentKind[]]>([
    ['What is down right now?', ['whats_down']],
    ["What's down?", ['whats_down']],
    ['Is anything failing?', ['whats_down']],
    ['Are all systems operational?', ['whats_down']],
    ['Any outages?', ['whats_down']],
    ['Is something wrong?', ['whats_down']],
    ['Which incidents are open?', ['open_incidents']],
    ['list open incidents', ['open_incidents']],
    ['Any active incidents?', ['open_incidents']],
    ['Tell me about the incident "Database outage"', ['incident_details']],
    ['incident 01900000-0000-7000-8000-000000000001', ['incident_details']],
    ['Summarize my status pages', ['status_page']],
    ['How is the status page "public" doing?', ['status_page']],
    ['Give me a summary', ['status_page']],
    ['Which checks do I have?', ['list_checks']],
    ['What is the availability of nightly-backup over the last 7 days?', ['availability']],
    ['uptime of the billing cron this month', ['availability']],
    ['Show the recent heartbeat events of nightly-backup', ['heartbeat_events']],
    ['When did the backup check last ping?', ['heartbeat_events']],
    ['Draft an update for the database incident', ['draft_update']],
    ['Write a status update saying we identified the cause', ['draft_update']],
    ['what can you do?', ['capabilities']],
  ])('%s → %j', (text, expected) => {
    expect(intents(text)).toEqual(expected);
  });

  it('answers several questions asked at once, in a fixed order', () => {
    expect(intents('Which incidents are open and what is down?')).toEqual(['whats_down', 'open_incidents']);
    expect(intents('Summarize the status pages and list my checks')).toEqual(['status_page', 'list_checks']);
  });

  it('recognises nothing in questions it cannot answer', () => {
    expect(intents("What's the weather in Paris?")).toEqual([]);
    expect(intents('Tell me a joke')).toEqual([]);
    expect(intents('')).toEqual([]);
  });

  it('marks requests to change something, and turns "resolve" into a RESOLVED draft', () => {
    const resolve = understand('Resolve the database incident', NOW);
    expect(resolve.writeRequest).toBe(true);
    expect(resolve.intents).toEqual(['draft_update']);
    expect(resolve.status).toBe('RESOLVED');
    expect(understand('Delete the check "backup"', NOW)).toMatchObject({ writeRequest: true, intents: [] });
    expect(understand('Create an incident for the API', NOW).writeRequest).toBe(true);
    expect(understand('Which incidents are open?', NOW).writeRequest).toBe(false);
    expect(understand('Draft a post about the outage', NOW).writeRequest).toBe(false);
  });

  it('picks up the status a draft should have', () => {
    expect(understand('Draft an update: the fix is deployed', NOW).status).toBe('MONITORING');
    expect(understand('Draft an update saying we found the cause', NOW).status).toBe('IDENTIFIED');
    expect(understand('Draft a resolved update', NOW).status).toBe('RESOLVED');
    expect(understand('Draft an update', NOW).status).toBeNull();
  });

  it('collects ids (lowercased) and quoted names', () => {
    const q = understand('Compare "API gateway" and `Nightly Backup` with 01900000-0000-7000-8000-00000000ABCD', NOW);
    expect(q.ids).toEqual(['01900000-0000-7000-8000-00000000abcd']);
    expect(q.quoted).toEqual(['API gateway', 'Nightly Backup']);
  });
});

describe('parseWindow', () => {
  it.each([
    ['availability over the last 7 days', 168, 'the last 7 days'],
    ['uptime in the past 24 hours', 24, 'the last 24 hours'],
    ['last week', 168, 'the last week'],
    ['past month', 720, 'the last month'],
    ['last two weeks', 336, 'the last 2 weeks'],
    ['over 30d', 720, 'the last 30 days'],
    ['in the last 90 minutes', 2, 'the last 90 minutes'],
    ['7d availability', 168, 'the last 7 days'],
    ['this week', 168, 'the last 7 days'],
    ['this month', 720, 'the last 30 days'],
    ['last 5 years', 9600, 'the last 400 days'],
    ['availability', 24, 'the last 24 hours'],
  ])('%s → %d hours', (text, hours, label) => {
    expect(parseWindow(text, NOW)).toEqual({ hours, label });
  });

  it('today: since midnight UTC, at least an hour', () => {
    expect(parseWindow('today', NOW)).toEqual({ hours: 16, label: 'today (UTC)' });
    expect(parseWindow('today', new Date('2026-03-10T00:10:00.000Z')).hours).toBe(1);
  });
});

describe('mentionedName', () => {
  const names = ['API', 'API gateway', 'Nightly backup', 'db'];

  it('prefers a quoted exact name', () => {
    expect(mentionedName(understand('availability of "api" and the api gateway', NOW), names)).toBe('API');
  });

  it('takes the longest name in the text, on word boundaries', () => {
    expect(mentionedName(understand('availability of the api gateway', NOW), names)).toBe('API gateway');
    expect(mentionedName(understand('events of nightly backup?', NOW), names)).toBe('Nightly backup');
    // "db" inside "dbx" is not a mention.
    expect(mentionedName(understand('events of dbx', NOW), names)).toBeNull();
  });

  it('falls back to the one name sharing the most distinctive words', () => {
    const checks = ['nightly-backup', 'billing-cron', 'nightly-report'];
    expect(mentionedName(understand('availability of the backup check', NOW), checks)).toBe('nightly-backup');
    expect(mentionedName(understand('how is the billing job doing', NOW), checks)).toBe('billing-cron');
    // Two names share "nightly": no guess.
    expect(mentionedName(understand('events of the nightly job', NOW), checks)).toBeNull();
    // Generic words ("check", "incident") name nothing.
    expect(mentionedName(understand('events of the check', NOW), ['Check A', 'Check B'])).toBeNull();
    expect(mentionedName(understand('draft an update for the checkout incident', NOW), ['Checkout errors', 'Slow search'])).toBe('Checkout errors');
  });

  it('gives null when nothing is named', () => {
    expect(mentionedName(understand('availability last week', NOW), names)).toBeNull();
  });
});
