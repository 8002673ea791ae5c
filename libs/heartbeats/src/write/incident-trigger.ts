import { Injectable } from '@nestjs/common';
import { Severity } from '../domain/heartbeat-check.decider';

/** Asks for the incident of a check's `triggerIncident` to be opened, on its first FAILING. */
export interface OpenIncidentRequest {
  /** Stable per outage (the eventId of its first FAILING): a redelivery must not open a second incident. */
  outageKey: string;
  accountId: string;
  checkId: string;
  checkName: string;
  serviceId: string;
  severity: Severity;
  name: string;
  description: string;
  notifySubscribers: boolean;
  /** The deadline that was missed. */
  failedAt: string;
}

/** Asks for a RESOLVED update on the incident opened for `outageKey`, on the first ping after it. */
export interface ResolveIncidentRequest {
  outageKey: string;
  accountId: string;
  checkId: string;
  checkName: string;
  serviceId: string;
  notifySubscribers: boolean;
  recoveredAt: string;
}

/**
 * Implemented by the incidents context and registered with HeartbeatIncidentTriggers, so heartbeats
 * never import incidents. Both calls may be repeated for one outage (at-least-once): implementations
 * treat `outageKey` as an idempotency key.
 */
export interface IncidentTrigger {
  open(request: OpenIncidentRequest): Promise<void>;
  resolve(request: ResolveIncidentRequest): Promise<void>;
}

/** Where the incidents context plugs in its IncidentTrigger. */
@Injectable()
export class HeartbeatIncidentTriggers {
  private readonly triggers: IncidentTrigger[] = [];

  register(trigger: IncidentTrigger): void {
    this.triggers.push(trigger);
  }

  get registered(): number {
    return this.triggers.length;
  }

  async open(request: OpenIncidentRequest): Promise<void> {
    for (const trigger of this.triggers) await trigger.open(request);
  }

  async resolve(request: ResolveIncidentRequest): Promise<void> {
    for (const trigger of this.triggers) await trigger.resolve(request);
  }
}
