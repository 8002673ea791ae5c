import { IncidentStatus } from './agent-data-source';
import type { IncidentFilter } from './agent-tool-outputs';
import { parseWindow, timeReference, TimeReference, TimeWindowHint } from './builtin-time';
import { statusMentioned } from './incident-update-draft';

/** The questions the builtin provider answers, in the order its answer takes them. */
const INTENT_KINDS = [
  'whats_down',
  'failures_in_window',
  'open_incidents',
  'incident_history',
  'incident_details',
  'status_page',
  'list_checks',
  'availability',
  'heartbeat_events',
  'draft_update',
  'capabilities',
] as const;
export type IntentKind = (typeof INTENT_KINDS)[number];

/** What the builtin provider understood of one question. */
export interface Question {
  intents: IntentKind[];
  /** The question asks to change something (create, resolve, post…): the agent only reads. */
  writeRequest: boolean;
  /** UUIDs in the text, lowercased. */
  ids: string[];
  /** Text in double quotes or backticks: names of checks, pages or incidents. */
  quoted: string[];
  window: TimeWindowHint;
  /** The window of time the question names, if any (calendar days and months too). */
  time: TimeReference;
  /** Which incidents of that window: "resolved in…", "opened in…", or open at any time in it. */
  incidentFilter: IncidentFilter;
  /** "What caused X", "root cause of X", "why did X happen": answered from X's timeline. */
  asksCause: boolean;
  /** An incident status named in the text, for drafts. */
  status: IncidentStatus | null;
  /** The question, lowercased with plain apostrophes and single spaces: for matching names. */
  normalized: string;
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const QUOTED = /["“”`]([^"“”`\n]{1,200})["“”`]/g;
const has = (text: string, pattern: RegExp) => pattern.test(text);

/**
 * Recognises the common questions by their words. Several may be asked at once ("what is down and
 * which incidents are open?"); each is answered in turn. Nothing recognised → no intents, and the
 * provider says plainly what it can answer.
 */
export function understand(question: string, now: Date): Question {
  const normalized = question.toLowerCase().replace(/[‘’]/g, "'").replace(/\s+/g, ' ').trim();
  // Quoted names ("Database outage") say what the question is about, not what it asks.
  const t = normalized.replace(/["“”`][^"“”`]*["“”`]/g, ' "" ');
  const ids = [...new Set((question.match(UUID) ?? []).map((id) => id.toLowerCase()))];
  const quoted = [...question.matchAll(QUOTED)].map((m) => m[1].trim()).filter((q) => q !== '');

  const draft = has(t, /\bdraft\b/) || has(t, /\b(compose|prepare|suggest|write|word|formulate)\b[^.?!]*\b(update|message|post|announcement|notice|statement|text)\b/);
  const writeVerb = has(t, /\b(create|resolve|close|delete|remove|mute|unmute|pause|unpause|acknowledge|rename|edit|re-?open|deactivate|activate)\b/) ||
    (!draft && has(t, /\b(post|publish|send)\b/));
  const incidentWord = has(t, /\bincidents?\b/);
  const checkWord = has(t, /\b(checks?|monitors?|heartbeats?|cron ?jobs?|jobs?)\b/);

  const time = timeReference(t, now);
  const past = time.kind !== 'none';
  const asksCause = has(t, /\b(caused?|causes|root cause|reason (for|behind)|why (did|was|were|is|has))\b/);
  const aboutOne =
    ids.length > 0 ||
    quoted.length > 0 ||
    asksCause ||
    has(t, /\b(details?|tell me about|more about|how long did|what happened (with|to|in|during|at)|timeline|explain|describe|latest update (on|for|of)|post-?mortem)\b/);
  const resolvedWord = has(t, /\b(resolved|closed|fixed|recovered|ended)\b/);
  const openedWord = has(t, /\b(opened|started|began|created|reported|new)\b/);

  const intents = new Set<IntentKind>();
  if (
    has(t, /\b(down|outages?|fail|failing|failed|fails|failures?|broken|broke|degraded|unhealthy|offline|not working|problems?|issues?|healthy|health|alerts?|alerting|erroring)\b/) ||
    has(t, /\b(everything|all|things|systems?|services?)\b[^.?!]*\b(ok|okay|fine|good|up|working|green|operational|running)\b/) ||
    has(t, /\b(anything|something) (wrong|off)\b/) ||
    has(t, /\bwhat'?s (wrong|going on|happening)\b/) ||
    has(t, /\b(current|overall) (status|state)\b/)
  ) {
    // Asked about a past window, "what failed" is a question about that window, not about now.
    intents.add(past && !has(t, /\b(now|currently|right now|at the moment)\b/) ? 'failures_in_window' : 'whats_down');
  }
  if (incidentWord) {
    if (aboutOne) intents.add('incident_details');
    else if (past || resolvedWord || (openedWord && !has(t, /\bopen\b/))) intents.add('incident_history');
    else intents.add('open_incidents');
  } else if (aboutOne && !checkWord && !has(t, /\b(status[- ]?pages?|availability|uptime|events?|pings?)\b/) && !has(t, /\bdraft\b/)) {
    // "What caused the checkout errors?": the name of an incident, without the word.
    intents.add('incident_details');
  }
  if (
    has(t, /\bstatus[- ]?pages?\b/) ||
    (has(t, /\bpages?\b/) && has(t, /\b(summar\w*|overview|how is|how's|state|status)\b/)) ||
    (has(t, /\bsummar(y|ise|ize)\b/) && !incidentWord && !checkWord)
  ) {
    intents.add('status_page');
  }
  if (has(t, /\b(availability|available|uptime|up-time|success (ratio|rate)|sla|slo|reliab\w*|how often)\b/)) intents.add('availability');
  if (has(t, /\b(events?|pings?|pinged|history|log)\b/) && (checkWord || has(t, /\b(recent|last|latest|show|list)\b/)) && !intents.has('incident_details')) {
    intents.add('heartbeat_events');
  }
  if (checkWord && has(t, /\b(list|which|what|show|all|my|have|state|status|how many)\b/)) intents.add('list_checks');
  if (draft || (writeVerb && has(t, /\b(resolve|close|post|publish|send)\b/) && (incidentWord || has(t, /\bupdate\b/)))) intents.add('draft_update');
  if (has(t, /\b(help|what can you (do|answer|tell)|what do you know|who are you|what are you)\b/)) intents.add('capabilities');

  // A narrower answer covers a broader one.
  const drop = (...kinds: IntentKind[]) => kinds.forEach((kind) => intents.delete(kind));
  if (intents.has('draft_update')) drop('incident_details', 'open_incidents', 'incident_history');
  if (intents.has('incident_details')) drop('whats_down', 'failures_in_window', 'status_page');
  if (intents.has('failures_in_window') && !resolvedWord && !openedWord) drop('incident_history');
  if (intents.has('whats_down') || intents.has('availability') || intents.has('heartbeat_events')) drop('list_checks');
  if ((intents.has('availability') || intents.has('heartbeat_events')) && !has(t, /\b(down|outages?|broken|degraded)\b/)) drop('whats_down');
  if (intents.has('availability') || intents.has('heartbeat_events')) drop('failures_in_window');

  // Questions about people, money or derived metrics: no tool answers them, and no other answer may stand in.
  if (has(t, /\b(who|whom|on[- ]?call|mttr|mtta|mttd|mean time|average|cost|revenue|how many customers|which customers)\b/) && !intents.has('capabilities')) {
    intents.clear();
  }

  let status = statusMentioned(t);
  if (status === null && has(t, /\b(resolve|close)\b/)) status = 'RESOLVED';
  return {
    intents: INTENT_KINDS.filter((kind) => intents.has(kind)),
    writeRequest: writeVerb,
    ids,
    quoted,
    window: parseWindow(t, now),
    time,
    incidentFilter: resolvedWord ? 'resolved' : openedWord && !has(t, /\b(open|active|ongoing)\b/) ? 'opened' : 'active',
    asksCause,
    status,
    normalized,
  };
}

/**
 * The name among `names` that the question mentions: an exact quoted name first, then the longest
 * name contained in the text (so "API gateway" beats "API"), then the one name sharing the most
 * distinctive words with it. Null when none is mentioned, or when that guess is a tie.
 */
export function mentionedName(question: Question, names: string[]): string | null {
  const lower = names.map((name) => name.toLowerCase());
  for (const quote of question.quoted) {
    const i = lower.indexOf(quote.toLowerCase());
    if (i >= 0) return names[i];
  }
  let best: string | null = null;
  for (let i = 0; i < names.length; i++) {
    const name = lower[i].replace(/\s+/g, ' ').trim();
    if (name.length < 2) continue;
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(^|[^a-z0-9])${escaped}($|[^a-z0-9])`).test(question.normalized) && (best === null || name.length > best.length)) best = names[i];
  }
  // A quoted name is an exact reference: no guessing from its words.
  return best ?? (question.quoted.length > 0 ? null : nameByWords(question, names));
}

/** Words that say what kind of thing is meant, not which one. */
const GENERIC_WORDS = new Set([
  'the', 'and', 'for', 'our', 'check', 'checks', 'incident', 'incidents', 'service', 'services', 'page', 'pages', 'status',
  'job', 'jobs', 'cron', 'monitor', 'heartbeat', 'update', 'about', 'with', 'from', 'what', 'last', 'past', 'days', 'hours',
]);

const wordsOf = (text: string) => text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !GENERIC_WORDS.has(w));

/** "the backup check" → "nightly-backup": the one name sharing the most distinctive words with the question. */
function nameByWords(question: Question, names: string[]): string | null {
  const asked = new Set(wordsOf(question.normalized));
  let best: string | null = null;
  let bestScore = 0;
  let tie = false;
  for (const name of names) {
    const score = new Set(wordsOf(name).filter((w) => asked.has(w))).size;
    if (score > bestScore) [best, bestScore, tie] = [name, score, false];
    else if (score === bestScore && score > 0) tie = true;
  }
  return tie ? null : best;
}
