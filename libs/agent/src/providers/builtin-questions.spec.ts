import { AgentEvent } from '../domain/agent-events';
import { AgentToolbox } from '../domain/agent-tools';
import { BuiltinProvider } from './builtin.provider';
import { ACME, CHECKS, FixtureAccounts, INCIDENTS, NOW, OTHER_CHECK, OTHER_INCIDENT } from './builtin-questions.fixture';

const I = INCIDENTS;
const C = CHECKS;
const CANT = "I can't answer that";
const CHOOSE = 'which one do you mean?';

async function ask(question: string, data = new FixtureAccounts()) {
  const errors: unknown[] = [];
  const tools = new AgentToolbox({ data, accountId: ACME, now: NOW }, (error) => errors.push(error));
  const events: AgentEvent[] = [];
  for await (const event of new BuiltinProvider().run({ accountId: ACME, messages: [{ role: 'user', text: question }], tools, now: NOW, signal: new AbortController().signal })) {
    events.push(event);
  }
  const text = events.map((e) => (e.type === 'text-delta' ? e.delta : '')).join('');
  return { text, errors, data };
}

/** [question, facts the answer must contain, facts it must not contain]. */
type Case = [string, string[], string[]];

const NEVER = [OTHER_INCIDENT.name, OTHER_CHECK.name, 'T00:00:00.000Z'.replace(/^/, 'undefined')];

const CASES: Case[] = [
  // A named incident, with or without quotes, with small typos.
  ['Tell me about the Elevated API error rates incident', [`Incident "${I.elevatedApiErrors.name}"`, 'A bad deploy of the rate limiter', 'Timeline (4 updates)'], [I.webhookErrors.name, I.apiLatency.name, CHOOSE]],
  ['tell me about the "Elevated API error rates" incident', [`Incident "${I.elevatedApiErrors.name}"`], [I.webhookErrors.name, CHOOSE]],
  ['Tell me about the elevated APi eror rates incident', [`Incident "${I.elevatedApiErrors.name}"`], [I.webhookErrors.name, CHOOSE]],
  ['what happened with elevated api error rate?', [`Incident "${I.elevatedApiErrors.name}"`, 'Error rates are back to normal.'], [I.webhookErrors.name]],
  ['Give me the details of the Elevatd API error rates', [`Incident "${I.elevatedApiErrors.name}"`], [I.webhookErrors.name]],
  ['tell me about the database incident', [`Incident "${I.databaseMaintenance.name}"`, 'Maintenance is complete.'], [CHOOSE]],
  ['Tell me about the email delay', [`Incident "${I.delayedEmail.name}"`], [CHOOSE, I.checkoutPayments.name]],
  [`Tell me about incident ${I.checkoutPayments.id}`, [`Incident "${I.checkoutPayments.name}" (${I.checkoutPayments.id})`], [CHOOSE]],
  ['How long did the checkout incident last?', [`Incident "${I.checkoutPayments.name}"`, 'RESOLVED: The certificate was renewed'], [I.elevatedApiErrors.name]],
  // Several candidates: a short list to choose from, no details of any.
  ['Tell me about the elevated error rates incident', [CHOOSE, I.elevatedApiErrors.name, I.webhookErrors.name], ['Timeline', I.checkoutPayments.name]],
  ['Tell me about the API incident', [CHOOSE, I.elevatedApiErrors.name, I.apiLatency.name], ['Timeline', I.dashboardLogin.name]],
  // Nothing of that name: said, not guessed.
  ['Tell me about the incident "Totally unknown thing"', [CANT, 'found no incident'], ['Timeline', 'Severity']],
  ['Tell me about the payroll export outage', [CANT, 'found no incident'], ['Timeline', OTHER_INCIDENT.id]],
  [`Tell me about incident ${OTHER_INCIDENT.id}`, [`No incident of this account matches "${OTHER_INCIDENT.id}"`], ['Timeline']],
  // "What caused X" gets X's timeline, and the update that names the cause.
  ['What caused the Elevated API error rates incident?', [`The cause of "${I.elevatedApiErrors.name}"`, 'A bad deploy of the rate limiter rejected valid tokens.', 'Timeline (4 updates)'], [I.webhookErrors.name]],
  ['What caused the checkout payments failure?', ["webhook certificate expired", `Incident "${I.checkoutPayments.name}"`], [CHOOSE]],
  ['Why did checkout fail yesterday?', ["webhook certificate expired"], [CHOOSE, I.elevatedApiErrors.name]],
  ['What caused the outage yesterday?', ["webhook certificate expired", `Incident "${I.checkoutPayments.name}"`], [I.elevatedApiErrors.name]],
  ['What caused the dashboard login errors?', ['do not state a cause', `Incident "${I.dashboardLogin.name}"`, 'Sign-in works again.'], ['The cause of']],
  ['root cause of the delayed email notifications?', ['A queue worker is stuck on a malformed message.'], [CHOOSE]],
  // Time windows, from the injected clock.
  ['Which incidents were resolved in the last 7 days?', ['2 incidents were resolved in the last 7 days', I.elevatedApiErrors.name, I.checkoutPayments.name], [I.dashboardLogin.name, I.databaseMaintenance.name, I.apiLatency.name, I.delayedEmail.name]],
  ['incidents last week', ['4 incidents were open in the last week', I.elevatedApiErrors.name, I.checkoutPayments.name, I.apiLatency.name, I.delayedEmail.name], [I.dashboardLogin.name, I.databaseMaintenance.name]],
  ['Incidents resolved yesterday', ['1 incident was resolved yesterday (Mon, 9 Mar 2026, UTC)', I.checkoutPayments.name], [I.elevatedApiErrors.name, I.apiLatency.name]],
  ['Any incidents today?', [I.apiLatency.name, I.delayedEmail.name, 'today (UTC)'], [I.checkoutPayments.name, I.elevatedApiErrors.name]],
  ['How many incidents were opened this month?', ['6 incidents were opened in the last 30 days', I.databaseMaintenance.name], [I.webhookErrors.name]],
  ['incidents in February', ['1 incident was open in February 2026', I.databaseMaintenance.name], [I.elevatedApiErrors.name, I.webhookErrors.name]],
  ['Were there any incidents in January?', [I.webhookErrors.name, 'January 2026'], [I.databaseMaintenance.name, I.elevatedApiErrors.name]],
  ['Which incidents were resolved in the last 30 days?', [I.dashboardLogin.name, I.databaseMaintenance.name, I.checkoutPayments.name], [I.webhookErrors.name, I.apiLatency.name]],
  ['What failed yesterday?', ['Yesterday (Mon, 9 Mar 2026, UTC), 1 heartbeat check failed', `"${C.billingSync.name}": 2 failures`, I.checkoutPayments.name], [C.nightlyBackup.name, C.searchReindex.name, I.elevatedApiErrors.name]],
  ['What went down in the last 3 days?', [C.billingSync.name, C.nightlyBackup.name, I.elevatedApiErrors.name, I.checkoutPayments.name], [I.dashboardLogin.name, C.searchReindex.name]],
  ['Was anything down 2 days ago?', ['Sun, 8 Mar 2026', I.elevatedApiErrors.name, '0 heartbeat checks failed'], [I.checkoutPayments.name, C.billingSync.name]],
  ['uptime of billing-sync yesterday', [`Availability of check "${C.billingSync.name}" over yesterday (Mon, 9 Mar 2026, UTC)`, '50%'], [C.nightlyBackup.name]],
  ['What is the availability of billing-sync over the last 7 days?', [`Availability of check "${C.billingSync.name}" over the last 7 days`], [C.searchReindex.name]],
  // Time words it does not understand: says so instead of answering for another window.
  ['What incidents happened last quarter?', [CANT, '"quarter"'], [I.elevatedApiErrors.name, I.apiLatency.name]],
  ['Did anything fail on Sunday?', [CANT, '"sunday"'], [C.billingSync.name, C.nightlyBackup.name]],
  ['Which incidents were resolved since March 1st?', [CANT], [I.checkoutPayments.name]],
  // The present.
  ['What is down right now?', [C.nightlyBackup.name, I.apiLatency.name, I.delayedEmail.name], [C.billingSync.name, I.checkoutPayments.name, I.elevatedApiErrors.name]],
  ['Is everything operational?', [C.nightlyBackup.name], [C.searchReindex.name]],
  ['Which incidents are open?', ['2 incidents are open', I.apiLatency.name, I.delayedEmail.name], [I.elevatedApiErrors.name, I.checkoutPayments.name]],
  ['Show the recent heartbeat events of nightly-backup', [`check "${C.nightlyBackup.name}" (now failing)`, '2026-03-10T02:05:00.000Z FAILING'], [C.billingSync.name]],
  ['Which checks do I have?', ['4 heartbeat checks', C.nightlyBackup.name, C.billingSync.name, C.searchReindex.name, C.certRenewal.name], []],
  ['Summarize my status page', ['Status page "Acme Status"', 'Public API: partial outage'.replace('partial outage', 'degraded performance')], []],
  ['Draft an update for the email incident', [`draft`, I.delayedEmail.name], [I.apiLatency.name]],
  ['Resolve the API latency incident', ["I can only read this account's data", `draft RESOLVED update for "${I.apiLatency.name}"`], []],
  // Questions no tool answers: plainly refused, with nothing that looks like an answer.
  ["What's the weather in Paris?", [CANT], [I.apiLatency.name, C.billingSync.name]],
  ['Who was on call during the checkout incident?', [CANT], [I.checkoutPayments.name, I.apiLatency.name]],
  ['What is our MTTR for incidents last month?', [CANT], [I.checkoutPayments.name, I.apiLatency.name]],
  ['Who resolved the checkout incident?', [CANT], [I.checkoutPayments.name]],
  ['what can you do?', ['I can answer questions'], [I.apiLatency.name]],
];

describe('the builtin assistant over a realistic account', () => {
  it('has a table of at least 40 questions', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES)('%s', async (question, must, mustNot) => {
    const { text, errors, data } = await ask(question);
    for (const fact of must) expect(text).toContain(fact);
    for (const fact of [...mustNot, ...NEVER]) expect(text).not.toContain(fact);
    expect(errors).toEqual([]);
    expect([...data.accountsRead]).toEqual(expect.not.arrayContaining(['acct-other']));
  });
});
