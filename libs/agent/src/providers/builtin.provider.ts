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
import { IntentKind, mentionedName, Question, understand } from '../domain/builtin-intents';
import {
  AgentToolbox,
  AvailabilityOutput,
  ChecksOutput,
  DraftOutput,
  EventsOutput,
  IncidentOutput,
  OpenIncidentsOutput,
  PagesOutput,
  ToolOutcome,
  WhatsDownOutput,
} from '../domain/agent-tools';
import { AgentProvider, AgentRunInput } from './agent-provider.port';

type Events = AsyncGenerator<AgentEvent, string | null>;

/** Lines as separate deltas: the answer streams as it would from a model, without waiting on anything. */
export function* textDeltas(text: string): Generator<AgentEvent> {
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
        const found = yield* this.incidentRef();
        if ('answer' in found) return found.answer;
        let ref = found.ref;
        if (ref === null) {
          const open = this.openIncidents!;
          if (open.incidents.length !== 1) {
            return open.incidents.length === 0
              ? 'There are no open incidents. Give the id or the name (in quotes) of the incident you mean.'
              : whichOne('open incident', open.incidents.map((i) => i.name), 'that');
          }
          ref = open.incidents[0].id;
        }
        const result = yield* this.tool<IncidentOutput>('get_incident', { incident: ref });
        return result.ok ? incidentDetailsAnswer(result.output.incident) : result.errorText;
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
        const result = yield* this.tool<AvailabilityOutput>('check_availability', { check: found.ref, hours: q.window.hours });
        return result.ok ? availabilityAnswer(result.output, q.window.label) : result.errorText;
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
    const run = new BuiltinRun(input.tools, question);
    yield { type: 'step-start' };

    const sections: string[] = [];
    if (question.writeRequest) sections.push(READ_ONLY_NOTE);
    for (const kind of question.intents) {
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
