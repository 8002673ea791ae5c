import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { EventOf, RecordedEvent } from '../../../core/src/event';
import { IncidentEvent, IncidentsQuery, IncidentState, PostedUpdateData } from '../../../incidents/src/incidents.api';
import { addressKey, StatusPagesQuery, SubscriptionData, SubscriptionsEvent } from '../../../status-pages/src/status-pages.api';
import { maskedOrigin, maskEmail } from '../domain/alert-channel';
import { AlertType } from '../domain/alert-message';
import { deliveryId, DeliveryDoc, newDelivery, Outbox, SUBSCRIBER_BATCH, SubscriberRecipient } from './outbox';

/** The events subscriber notices come from: new subscriptions and posted incident updates. */
export type SubscriberNoticeEvent =
  | EventOf<SubscriptionsEvent, 'StatusPageSubscriptionsAdded' | 'StatusPageSubscriptionConfirmationRequested'>
  | EventOf<IncidentEvent, 'IncidentUpdatePosted'>;

/**
 * Subscriber deliveries: the confirmation email of every new PENDING email subscription (bulk API
 * or public form alike), and one email per verified address for an incident created or updated with
 * notifySubscribers, however many of the account's pages show the incident.
 */
@Injectable()
export class SubscriberNotices {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly queries: QueryBus,
  ) {}

  async handle(event: RecordedEvent<SubscriberNoticeEvent>): Promise<void> {
    if (event.type === 'StatusPageSubscriptionsAdded') return this.confirm(event.data.accountId, event.data.statusPageId, event.data.subscriptions, null);
    if (event.type === 'StatusPageSubscriptionConfirmationRequested') {
      // A PENDING address subscribed again: a new delivery (so a new link, valid 48 h from now).
      const { statusPageId, accountId, id, type, address, requestedAt } = event.data;
      return this.confirm(accountId, statusPageId, [{ id, type, address, status: 'PENDING' }], requestedAt);
    }
    return this.posted(event);
  }

  /** `again`: the time of a re-sent confirmation, part of its delivery id (null for the first). */
  private async confirm(accountId: string, statusPageId: string, subscriptions: SubscriptionData[], again: string | null): Promise<void> {
    const pending = subscriptions.filter((s) => s.status === 'PENDING' && s.type === 'EMAIL');
    const hooks = subscriptions.filter((s) => s.type === 'WEBHOOK');
    if (pending.length === 0 && hooks.length === 0) return;
    const pageName = await this.queries.execute(new StatusPagesQuery({ type: 'GetPageName', accountId, statusPageId }));
    if (pageName === null) return;
    const now = this.clock.now();
    const idOf = (subscriptionId: string) => deliveryId(subscriptionId, 'SUBSCRIPTION_CONFIRM', ...(again === null ? [] : [again]));
    // Every new webhook gets a signed confirmation POST carrying its signing secret; a 2xx verifies it.
    for (const s of hooks) {
      const payload = { type: 'subscription_confirmation', page: { id: statusPageId, name: pageName }, subscription: { id: s.id } };
      await this.outbox.add(webhookDelivery(idOf(s.id), accountId, s, statusPageId, 'SUBSCRIPTION_CONFIRM', payload, now));
    }
    for (const s of pending) {
      await this.outbox.add(newDelivery({
        id: idOf(s.id),
        accountId,
        recipient: maskEmail(s.address),
        alertType: 'SUBSCRIPTION_CONFIRM',
        target: { kind: 'confirm', subscriptionId: s.id, statusPageId, pageName, address: s.address },
      }, now));
    }
  }

  private async posted(event: RecordedEvent<EventOf<IncidentEvent, 'IncidentUpdatePosted'>>): Promise<void> {
    const { data } = event;
    const accountId = event.metadata.accountId;
    if (!data.notifySubscribers || !accountId) return;
    // Folded from the log: the incident as of this event, whatever a read model shows by now.
    const { state, events } = await this.queries.execute(new IncidentsQuery({ type: 'FoldIncident', id: data.incidentId }));
    if (state.status !== 'active' || !state.name) return;
    const pages = await this.queries.execute(new StatusPagesQuery({ type: 'PagesShowing', accountId, serviceIds: state.serviceIds }));
    const alertType = event.revision === 1n ? 'INCIDENT_CREATED' : 'INCIDENT_UPDATED';
    const now = this.clock.now();
    const seen = new Set<string>();
    const trigger = `${event.stream}@${event.revision}`;
    const recipients: SubscriberRecipient[] = [];
    for (const page of pages) {
      for (const s of (await this.queries.execute(new StatusPagesQuery({ type: 'ListSubscriptions', accountId, statusPageId: page.id }))) ?? []) {
        const key = addressKey(s.address, s.type);
        if (s.status !== 'VERIFIED' || seen.has(key)) continue;
        seen.add(key);
        if (s.type === 'WEBHOOK') {
          const payload = statuspagePayload(page, data, state, events);
          await this.outbox.add(webhookDelivery(deliveryId(trigger, key), accountId, s, page.id, alertType, payload, now, data.incidentId));
          continue;
        }
        recipients.push({
          address: s.address,
          subscriptionId: s.id,
          statusPageId: page.id,
          pageName: page.name,
          pageUrl: page.url,
          messageId: deliveryId(trigger, key),
          state: 'PENDING',
          lastError: null,
        });
      }
    }
    for (let i = 0; i * SUBSCRIBER_BATCH < recipients.length; i++) {
      const batch = recipients.slice(i * SUBSCRIBER_BATCH, (i + 1) * SUBSCRIBER_BATCH);
      await this.outbox.add(newDelivery({
        id: deliveryId(trigger, 'subscribers', String(i)),
        accountId,
        recipient: batch.length === 1 ? maskEmail(batch[0].address) : `${batch.length} subscribers`,
        incidentId: data.incidentId,
        alertType,
        target: { kind: 'incident-emails', incidentName: state.name, status: data.status, description: data.description, recipients: batch },
      }, now));
    }
  }
}

const IMPACT: Record<string, string> = { CRITICAL: 'critical', MAJOR: 'major', MEDIUM: 'minor', MINOR: 'minor' };

/** Statuspage's subscriber webhook body (`page` and `incident`); `meta.unsubscribe` is added when sent. */
function statuspagePayload(page: { id: string; name: string }, data: PostedUpdateData, state: IncidentState, events: RecordedEvent[]): Record<string, unknown> {
  const resolved = data.status === 'RESOLVED';
  const createdAt = events[0]?.metadata.occurredAt ?? data.publicIncidentUpdateDate;
  const updatedAt = events[events.length - 1]?.metadata.occurredAt ?? createdAt;
  return {
    page: {
      id: page.id,
      name: page.name,
      status_indicator: resolved ? 'none' : (IMPACT[state.severity ?? 'MINOR'] ?? 'minor'),
      status_description: resolved ? 'All Systems Operational' : state.name,
    },
    incident: {
      id: data.incidentId,
      name: state.name,
      status: data.status.toLowerCase(),
      impact: IMPACT[state.severity ?? 'MINOR'] ?? 'minor',
      created_at: createdAt,
      updated_at: updatedAt,
      resolved_at: resolved ? data.publicIncidentUpdateDate : null,
      incident_updates: [...state.updates].reverse().map((u) => ({
        id: u.id,
        incident_id: data.incidentId,
        status: u.status.toLowerCase(),
        body: u.description,
        display_at: u.publicIncidentUpdateDate,
      })),
    },
  };
}

/** A POST to a WEBHOOK subscriber (its confirmation, or an incident's news). */
function webhookDelivery(id: string, accountId: string, s: { id: string; address: string }, statusPageId: string, alertType: AlertType, payload: Record<string, unknown>, now: Date, incidentId: string | null = null): DeliveryDoc {
  const target = { kind: 'subscriber-webhook' as const, url: s.address, subscriptionId: s.id, statusPageId, payload };
  return newDelivery({ id, accountId, recipient: maskedOrigin(s.address), incidentId, alertType, target }, now);
}
