import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FindQuery } from '../../../read-store/src/read-store.port';
import { ContextQuery } from '../../../read-store/src/context-query';
import { CheckDirectory, CheckStatusView, CheckView } from './check-directory';
import { CheckDoc } from './heartbeat-checks.projection';
import { CheckIndex, CheckPage, CheckSummary } from './check-index';
import { CheckState } from './check-state';
import { Availability, HeartbeatEventView, HeartbeatStats } from './heartbeat-stats';
import { TimeWindow } from './heartbeat-window';

type Stats = { last24Hours: Availability; last7Days: Availability };

/** What may be asked of the heartbeats read side; every question but `AnyCheck` is scoped to an account. */
export type HeartbeatsQuestion =
  | { type: 'ListChecks'; accountId: string; limit: number; after: FindQuery['after'] }
  | { type: 'GetCheck'; accountId: string; id: string }
  /** Counts by state and per alert channel, and the tags: a console's summary without every check. */
  | { type: 'CheckSummary'; accountId: string }
  /** One page of checks, failing first then by name, optionally of one state and tag; with how many match. */
  | { type: 'CheckPage'; accountId: string; state?: CheckState; tag?: string; offset: number; limit: number }
  /** The first `limit` checks by name plus the named ones (`include`) of the account: a form's bounded choices. */
  | { type: 'CheckNames'; accountId: string; include: string[]; limit: number }
  | { type: 'CheckEvents'; accountId: string; checkId: string; window: TimeWindow; limit: number }
  | { type: 'CheckEvent'; accountId: string; checkId: string; eventId: string }
  | { type: 'CheckAvailability'; accountId: string; checkId: string; window: TimeWindow }
  /** Every check's status in Checkly's shape. */
  | { type: 'CheckStatuses'; accountId: string }
  | { type: 'CheckStatus'; accountId: string; checkId: string }
  /** A check of any account, for background work that acts for the account of its event. */
  | { type: 'AnyCheck'; id: string }
  /** The outage a check of any account is in (its first FAILING's eventId), or null. */
  | { type: 'OngoingOutage'; checkId: string };

/** The answers; null where the check (or event) is missing or another account's. */
export interface HeartbeatsAnswers {
  ListChecks: CheckView[];
  GetCheck: { check: CheckView; revision: bigint } | null;
  CheckSummary: CheckSummary;
  CheckPage: CheckPage;
  CheckNames: { checks: { id: string; name: string }[]; total: number };
  CheckEvents: { events: HeartbeatEventView[]; stats: Stats } | null;
  /** `event` null: the check is there, the event is not. */
  CheckEvent: { event: HeartbeatEventView; stats: Stats } | { event: null } | null;
  CheckAvailability: Availability | null;
  CheckStatuses: CheckStatusView[];
  CheckStatus: CheckStatusView | null;
  AnyCheck: CheckDoc | null;
  OngoingOutage: string | null;
}

export class HeartbeatsQuery<T extends HeartbeatsQuestion['type']> extends ContextQuery<HeartbeatsQuestion, HeartbeatsAnswers, T> {}

/** The heartbeats read side: checks with their timers, and each check's events and availability. */
@QueryHandler(HeartbeatsQuery)
export class HeartbeatsQueryHandler implements IQueryHandler<HeartbeatsQuery<HeartbeatsQuestion['type']>> {
  constructor(
    private readonly checks: CheckDirectory,
    private readonly stats: HeartbeatStats,
    private readonly index: CheckIndex,
  ) {}

  async execute({ query: q }: HeartbeatsQuery<HeartbeatsQuestion['type']>): Promise<HeartbeatsAnswers[HeartbeatsQuestion['type']]> {
    switch (q.type) {
      case 'ListChecks':
        return this.checks.list(q.accountId, q.limit, q.after);
      case 'GetCheck':
        return this.checks.get(q.accountId, q.id);
      case 'CheckSummary':
        return this.index.summary(q.accountId);
      case 'CheckPage':
        return this.index.page(q.accountId, { state: q.state, tag: q.tag }, q.offset, q.limit);
      case 'CheckNames':
        return this.index.names(q.accountId, q.include, q.limit);
      case 'CheckEvents': {
        if (!(await this.checks.owns(q.accountId, q.checkId))) return null;
        const [events, stats] = await Promise.all([this.stats.events(q.checkId, q.window, q.limit), this.stats.stats(q.checkId)]);
        return { events, stats };
      }
      case 'CheckEvent': {
        if (!(await this.checks.owns(q.accountId, q.checkId))) return null;
        const event = await this.stats.event(q.checkId, q.eventId);
        return event ? { event, stats: await this.stats.stats(q.checkId) } : { event: null };
      }
      case 'CheckAvailability':
        return (await this.checks.owns(q.accountId, q.checkId)) ? this.stats.availability(q.checkId, q.window) : null;
      case 'CheckStatuses':
        return this.checks.statuses(q.accountId);
      case 'CheckStatus':
        return this.checks.statusOf(q.accountId, q.checkId);
      case 'AnyCheck':
        return this.checks.byId(q.id);
      case 'OngoingOutage':
        return this.checks.ongoingOutage(q.checkId);
    }
  }
}
