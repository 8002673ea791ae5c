/** Who did what, when: carried by every event. */
export interface EventMetadata {
  accountId: string | null;
  keyId?: string | null;
  keyName?: string | null;
  requestId?: string | null;
  occurredAt: string;
  [key: string]: unknown;
}

/** An event as deciders produce it. `type` strings are past tense and never renamed. */
export interface DomainEvent<Type extends string = string, Data = object> {
  type: Type;
  data: Data;
}

export type EventData = Record<string, unknown>;

export interface EventToAppend extends DomainEvent<string, EventData> {
  metadata: EventMetadata;
}

/** An event as the store returns it. */
export interface RecordedEvent<E extends DomainEvent = DomainEvent<string, EventData>> {
  stream: string;
  /** Position of the event inside its stream; the first event is 0. */
  revision: bigint;
  /** Position in the global log; grows across all streams. */
  position: bigint;
  type: E['type'];
  data: E['data'];
  metadata: EventMetadata;
}

/** A recorded event as its stream's decider typed it: a stream holds only what that decider wrote. */
export function asDecided<E extends DomainEvent>(event: RecordedEvent): E {
  const plain: DomainEvent = event;
  return plain as E;
}
