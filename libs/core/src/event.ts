/** Who is acting; becomes the metadata of every event the command produces. */
export interface Actor {
  accountId: string | null;
  keyId?: string | null;
  keyName?: string | null;
  requestId?: string | null;
  /** Set when a signed-in person acted (console session), not a key. */
  userId?: string | null;
}

/** Who did what, when: carried by every event. */
export interface EventMetadata extends Actor {
  occurredAt: string;
  [key: string]: unknown;
}

/** An event as deciders produce it. `type` strings are past tense and never renamed. */
export interface DomainEvent<Type extends string = string, Data = object> {
  type: Type;
  data: Data;
}

export type EventData = Record<string, unknown>;

export interface EventToAppend extends DomainEvent {
  metadata: EventMetadata;
}

/** Where and when the store recorded an event: what a recorded event carries beside its decider's type and data. */
interface RecordedEnvelope {
  stream: string;
  /** Position of the event inside its stream; the first event is 0. */
  revision: bigint;
  /** Position in the global log; grows across all streams. */
  position: bigint;
  metadata: EventMetadata;
}

/**
 * An event as the store returns it. Given a union of a decider's events it is a union too, so
 * `switch (event.type)` narrows `event.data` with no cast.
 */
export type RecordedEvent<E extends DomainEvent = DomainEvent> = E & RecordedEnvelope;

/** The members of an event union with the given types. */
export type EventOf<E extends DomainEvent, Type extends E['type']> = Extract<E, { type: Type }>;

/**
 * The trusted boundary between the log and typed code, and the only cast of event data: an event's
 * type names its shape, because only the decider owning a type appends it and types are never renamed
 * or reshaped. The command runner uses it for a stream's own events; `handledEvent` for everyone else.
 */
export function asDecided<E extends DomainEvent>(event: RecordedEvent): E {
  const plain: DomainEvent = event;
  return plain as E;
}

/**
 * An event as a projection or processor that lists its type in `handles` reads it, or null when it
 * does not handle it. The projection engine and the processor runner hand over events through this.
 */
export function handledEvent<E extends DomainEvent>(handles: readonly E['type'][], event: RecordedEvent): RecordedEvent<E> | null {
  const types: readonly string[] = handles;
  return types.includes(event.type) ? asDecided<RecordedEvent<E>>(event) : null;
}
