import { AgentEvent } from '../domain/agent-events';
import {
  availabilityAnswer,
  capabilitiesAnswer,
  checksAnswer,
  draftAnswer,
  eventsAnswer,
  incidentDetailsAnswer,
  notUnderstoodAnswer,
  openIncidentsAnswer,
  READ_ONLY_NOTE,
  statusPagesAnswer,
  whatsDownAnswer,
  whichOne,
} from '../domain/builtin-answers';
import { causeAnswer, failuresAnswer, incidentChoices, incidentHistoryAnswer, noIncidentNamed, unknownTimeAnswer } from '../domain/builtin-history-answers';
import { IntentKind, mentionedName, Question, understand } from '../domain/builtin-intents';
import { distinctiveWords, pickNamed } from '../domain/builtin-names';
import { TimeSpan } from '../domain/builtin-time';
import {
  AgentToolbox,
  AvailabilityOutput,
  ChecksOutput,
  DraftOutput,
  EventsOutput,
  FailuresOutput,
  IncidentOutput,
  IncidentsOutput,
  MAX_WINDOW_DAYS,
  OpenIncidentsOutput,
  PagesOutput,
  ToolOutcome,
  WhatsDownOutput,
} from '../domain/agent-tools';
import { AgentProvider, AgentRunInput } from './agent-provider.port';

type Events = AsyncGenerator<AgentEvent, string | null>;

/** Answers that depend on the window the question names: with time words not understood, they are not guessed. */
const WINDOWED = new Set<IntentKind>(['failures_in_window', 'incident_history', 'availability', 'open_incidents', 'whats_down']);

/** Lines as separate deltas: the answer streams as it would from a model, without waiting on anything. */
function* textDeltas(text: string): Generator<AgentEvent> {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const delta = i < lines.length - 1 ? `${lines[i]}\n` : lines[i];
    if (delta !== '') yield { type: 'text-delta', delta };
  }
}

/**
 * One run of the builtin provider: the tools it calls and the sections of its answer. Lists it
 * needs for several questions (checks, open incidents) are read once per run.
 */
class BuiltinRun {
  private calls = 0;
  private checks: ChecksOutput | null = null;
  private openIncidents: OpenIncidentsOutput | null = null;

  constructor(
    private readonly tools: AgentToolbox,
    private readonly question: Question,
    private readonly now: Date,
  ) {}

  private async *tool<T>(name: string, input: Record<string, unknown>): AsyncGenerator<AgentEvent, { ok: true; output: T } | { ok: false; errorText: string }> {
    const outcome: ToolOutcome = yield* this.tools.invoke(`builtin-${++this.calls}`, name, input);
    return outcome.ok ? { ok: true, output: outcome.output as T } : outcome;
  }

  private async *listChecks(): AsyncGenerator<AgentEvent, ChecksOutput | string> {
    if (this.checks) return this.checks;
    const result = yield* this.tool<ChecksOutput>('list_checks', {});
    if (!result.ok) return `I could not list the heartbeat checks: ${result.errorText}`;
    this.checks = result.output;
    return result.output;
  }

  private async *listOpenIncidents(): AsyncGenerator<AgentEvent, OpenIncidentsOutput | string> {
    if (this.openIncidents) return this.openIncidents;
    const result = yield* this.tool<OpenIncidentsOutput>('list_open_incidents', { limit: 50 });
    if (!result.ok) return `I could not list the open incidents: ${result.errorText}`;
    this.openIncidents = result.output;
    return result.output;
  }

  /** The check a question names: by id or quoted name, by a name in the text, or the only one there is. */
  private async *checkRef(what: string): AsyncGenerator<AgentEvent, { ref: string } | { answer: string }> {
    const explicit = this.question.ids[0] ?? null;
    if (explicit) return { ref: explicit };
    const checks = yield* this.listChecks();
    if (typeof checks === 'string') return { answer: checks };
    const names = checks.checks.map((c) => c.name);
    const named = mentionedName(this.question, names);
    if (named !== null) return { ref: checks.checks.find((c) => c.name === named)!.id };
    if (this.question.quoted[0]) return { ref: this.question.quoted[0] };
    if (checks.checks.length === 1) return { ref: checks.checks[0].id };
    return { answer: whichOne('check', names, what) };
  }

  /** The tool input for a window: hours back from now when rolling, else its start and end. */
  private windowInput(span: TimeSpan): Record<string, unknown> {
    return span.rolling ? { hours: span.hours } : { startTime: new Date(span.start).toISOString(), endTime: new Date(span.end).toISOString() };
  }

  /** The window the question names, or a default one said plainly. */
  private span(fallbackHours: number, fallbackLabel: string): TimeSpan {
    if (this.question.time.kind === 'span') return this.question.time.span;
    const end = this.now.getTime();
    return { start: end - fallbackHours * 3_600_000, end, label: fallbackLabel, rolling: true, hours: fallbackHours };
  }

  /**
   * "Tell me about the Elevated API error rates incident", "what caused the checkout errors?": the
   * incident named by an id, a quoted name or the words of the question (small typos allowed). Several
   * candidates become a list to choose from; nothing found is said, never replaced by a guess.
   */
  private async *namedIncident(): AsyncGenerator<AgentEvent, { ref: string } | { answer: string } | { unnamed: true }> {
    const q = this.question;
    if (q.ids[0]) return { ref: q.ids[0] };
    const text = q.quoted[0] ?? q.normalized;
    const asked = q.quoted[0] ? `"${q.quoted[0]}"` : 'your question';
    const span = q.time.kind === 'span' ? q.time.span : null;
    const input = span ? { ...this.windowInput(span), filter: 'active' } : { hours: MAX_WINDOW_DAYS * 24, filter: 'active' };
    const result = yield* this.tool<IncidentsOutput>('list_incidents', input);
    if (!result.ok) return { answer: `I could not list the incidents: ${result.errorText}` };
    const incidents = result.output.incidents;
    if (distinctiveWords(text).length === 0) {
      // No name given: within a named window, the only incident of it is the one meant.
      if (span && incidents.length === 1) return { ref: incidents[0].id };
      if (span) return { answer: incidents.length === 0 ? incidentHistoryAnswer(result.output, span.label) : incidentChoices(incidents.slice(0, 10), `meant in ${span.label}`) };
      return { unnamed: true };
    }
    const pick = pickNamed(text, incidents);
    if (pick.kind === 'one') return { ref: pick.item.id };
    if (pick.kind === 'several') return { answer: incidentChoices(pick.items, `the one in ${asked}`) };
    return { answer: noIncidentNamed(q.quoted[0] ? `"${q.quoted[0]}"` : 'the name in your question', incidents) };
  }

  /** The incident a question names, or null for "the newest open one". */
  private async *incidentRef(): AsyncGenerator<AgentEvent, { ref: string | null } | { answer: string }> {
    const explicit = this.question.ids[0] ?? null;
    if (explicit) return { ref: explicit };
    const open = yield* this.listOpenIncidents();
    if (typeof open === 'string') return { answer: open };
    const named = mentionedName(this.question, open.incidents.map((i) => i.name));
    if (named !== null) return { ref: open.incidents.find((i) => i.name === named)!.id };
    if (this.question.quoted[0]) return { ref: this.question.quoted[0] };
    return { ref: null };
  }

  async *answer(kind: IntentKind): Events {
    const q = this.question;
    switch (kind) {
      case 'capabilities':
        return capabilitiesAnswer();
      case 'whats_down': {
        const result = yield* this.tool<WhatsDownOutput>('whats_down', {});
        return result.ok ? whatsDownAnswer(result.output) : `I could not tell what is down: ${result.errorText}`;
      }
      case 'open_incidents': {
        const open = yield* this.listOpenIncidents();
        return typeof open === 'string' ? open : openIncidentsAnswer(open);
      }
      case 'incident_details': {
        const named = yield* this.namedIncident();
        if ('answer' in named) return named.answer;
        let ref: string;
        if ('ref' in named) ref = named.ref;
        else {
          const open = yield* this.listOpenIncidents();
          if (typeof open === 'string') return open;
          if (open.incidents.length !== 1) {
            return open.incidents.length === 0
              ? 'There are no open incidents. Give the id or the name of the incident you mean.'
              : whichOne('open incident', open.incidents.map((i) => i.name), 'that');
          }
          ref = open.incidents[0].id;
        }
        const result = yield* this.tool<IncidentOutput>('get_incident', { incident: ref });
        if (!result.ok) return result.errorText;
        const details = incidentDetailsAnswer(result.output.incident);
        return q.asksCause ? `${causeAnswer(result.output.incident)}\n\n${details}` : details;
      }
      case 'incident_history': {
        const span = this.span(24 * 7, 'the last 7 days');
        const result = yield* this.tool<IncidentsOutput>('list_incidents', { ...this.windowInput(span), filter: q.incidentFilter });
        return result.ok ? incidentHistoryAnswer(result.output, span.label) : `I could not list the incidents: ${result.errorText}`;
      }
      case 'failures_in_window': {
        const span = this.span(24, 'the last 24 hours');
        const result = yield* this.tool<FailuresOutput>('failures_in_window', this.windowInput(span));
        return result.ok ? failuresAnswer(result.output, span.label) : `I could not tell what failed: ${result.errorText}`;
      }
      case 'status_page': {
        const explicit = q.ids[0] ?? null;
        const result = yield* this.tool<PagesOutput>('status_page_summary', explicit ? { statusPage: explicit } : {});
        if (!result.ok) return result.errorText;
        const pages = result.output.pages;
        const named = mentionedName(q, [...pages.map((p) => p.name), ...pages.map((p) => p.url)]);
        const page = named === null ? undefined : pages.find((p) => p.name === named || p.url === named);
        return statusPagesAnswer(page ? { pages: [page], more: false } : result.output);
      }
      case 'list_checks': {
        const checks = yield* this.listChecks();
        return typeof checks === 'string' ? checks : checksAnswer(checks);
      }
      case 'availability': {
        const found = yield* this.checkRef('the availability question');
        if ('answer' in found) return found.answer;
        const span = q.time.kind === 'span' && !q.time.span.rolling ? q.time.span : null;
        const window = span ? this.windowInput(span) : { hours: q.window.hours };
        const result = yield* this.tool<AvailabilityOutput>('check_availability', { check: found.ref, ...window });
        return result.ok ? availabilityAnswer(result.output, span ? span.label : q.window.label) : result.errorText;
      }
      case 'heartbeat_events': {
        const found = yield* this.checkRef('the question about events');
        if ('answer' in found) return found.answer;
        const result = yield* this.tool<EventsOutput>('recent_heartbeat_events', { check: found.ref, limit: 10 });
        return result.ok ? eventsAnswer(result.output) : result.errorText;
      }
      case 'draft_update': {
        const found = yield* this.incidentRef();
        if ('answer' in found) return found.answer;
        const input: Record<string, unknown> = {};
        if (found.ref !== null) input.incident = found.ref;
        if (q.status !== null) input.status = q.status;
        const result = yield* this.tool<DraftOutput>('draft_incident_update', input);
        if (!result.ok) return `I could not draft an update: ${result.errorText}`;
        const several = found.ref === null && (this.openIncidents?.incidents.length ?? 0) > 1;
        const note = several ? '\n\n(Several incidents are open; this is for the newest. Name another one in quotes to draft for it.)' : '';
        return draftAnswer(result.output) + note;
      }
    }
  }

  get usedTools(): boolean {
    return this.calls > 0;
  }
}

/**
 * The default provider, with no network: recognises the common questions in the last user message,
 * calls the same read-only tools a model would, and writes the answer from what they return. What it
 * does not recognise it says so, with the list of what it can answer.
 */
export class BuiltinProvider implements AgentProvider {
  readonly name = 'builtin' as const;

  async *run(input: AgentRunInput): AsyncGenerator<AgentEvent> {
    const last = input.messages[input.messages.length - 1];
    const question = understand(last.text, input.now);
    const run = new BuiltinRun(input.tools, question, input.now);
    yield { type: 'step-start' };

    const sections: string[] = [];
    if (question.writeRequest) sections.push(READ_ONLY_NOTE);
    const unknownTime = question.time.kind === 'unknown' ? question.time.words : null;
    for (const kind of question.intents) {
      if (unknownTime !== null && WINDOWED.has(kind)) {
        sections.push(unknownTimeAnswer(unknownTime));
        continue;
      }
      if (input.signal.aborted) return;
      const section = yield* run.answer(kind);
      if (section) sections.push(section);
    }
    if (question.intents.length === 0) sections.push(question.writeRequest ? capabilitiesAnswer() : notUnderstoodAnswer());
    if (input.signal.aborted) return;

    // Like a model: a step that called tools, then a step that answers from their results.
    if (run.usedTools) {
      yield { type: 'step-finish' };
      yield { type: 'step-start' };
    }
    yield* textDeltas(sections.join('\n\n'));
    yield { type: 'finish', reason: 'stop' };
  }
}
