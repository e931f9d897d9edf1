import { prefixedId } from '../domain/ids.ts';
import type { EventPayloads, EventType } from './catalogue.ts';

/**
 * Something that reacts to domain events: webhook delivery today, each shop connector and the
 * automation subscriptions next. Each gets its own job per event, so a slow or failing subscriber
 * never delays another.
 */
export interface Subscriber {
  name: string;
  /** The job (under src/jobs/) that handles one event for this subscriber; payload `{ v, event_id }`. */
  job: string;
  /**
   * Whether this brand has anyone listening to `type` here. Called on every change, so it must be
   * cheap: a cached answer, refreshed when the subscriptions change.
   */
  listens(brandId: string, type: EventType): boolean | Promise<boolean>;
  /**
   * The job queue of this subscriber's job for `event`, when its jobs must not overtake
   * one another (a shop must hear an order's moves in the order they happened): jobs of one queue
   * run one at a time, oldest first. None (the default): the jobs run in parallel.
   */
  queue?(event: Pick<OutboxEvent, 'type' | 'brandId' | 'data'>): string | null;
  /**
   * Only events about orders that came from here (a shop platform): the brand may link shops of
   * several platforms and create orders by API too, and each shop hears of its own orders only.
   */
  origin?: string;
  /**
   * Whether this event, once built, is one this subscriber acts on (`listens` knows only its type):
   * the recipients' notifications take an order's status change only to a step they tell (not a
   * pickup or hub scan), so a scan writes no job that would do nothing.
   */
  accepts?(event: Pick<OutboxEvent, 'type' | 'data'>): boolean;
}

/** An event to write in the same statement or transaction as the change it reports. */
export interface OutboxEvent<T extends EventType = EventType> {
  /** Also the Standard Webhooks `webhook-id`: the same on every delivery and replay. */
  id: string;
  type: T;
  brandId: string;
  data: EventPayloads[T];
  at: Date;
  /** One job per interested subscriber, enqueued with the event. */
  jobs: readonly string[];
  /** Each job's queue (same index; null: none), when a subscriber declared one. */
  queues?: readonly (string | null)[];
}

/** What a change asks of the outbox (outbox() below): whether anyone listens, and the event to write. */
export interface Outbox {
  /** The jobs of the subscribers listening to this brand's `type`: none, nothing to write. */
  jobsFor(brandId: string, type: EventType): Promise<string[]>;
  /**
   * The event for listeners already known (`jobsFor`), or null when there are none; with `origin`
   * (the shop platform an order came from, or null), a connector's job only for its own orders.
   */
  eventWith<T extends EventType>(
    jobs: readonly string[],
    brandId: string,
    type: T,
    at: Date,
    data: () => EventPayloads[T],
    origin?: string | null,
  ): OutboxEvent<T> | null;
  /** The event to write with the change, or null when nobody listens. */
  event<T extends EventType>(
    brandId: string,
    type: T,
    at: Date,
    data: () => EventPayloads[T],
  ): Promise<OutboxEvent<T> | null>;
}

/**
 * Decides what a change writes for its subscribers: nothing at all when none of them listens to
 * that brand's event (no event row, no job), else the event with one job per listener. The payload
 * is built only when someone will read it.
 */
export function outbox(
  subscribers: readonly Subscriber[],
  options: {
    /** Where an order came from (a shop platform), or null: asked only when a listener has an `origin`. */
    originOf?: (trackingRef: string) => Promise<string | null>;
  } = {},
): Outbox {
  const queueOf = new Map(subscribers.flatMap((s) => (s.queue ? [[s.job, s.queue.bind(s)] as const] : [])));
  const originOfJob = new Map(subscribers.flatMap((s) => (s.origin ? [[s.job, s.origin] as const] : [])));
  const acceptsOfJob = new Map(
    subscribers.flatMap((s) => (s.accepts ? [[s.job, s.accepts.bind(s)] as const] : [])),
  );

  async function jobsFor(brandId: string, type: EventType): Promise<string[]> {
    const jobs: string[] = [];
    for (const subscriber of subscribers) {
      if (await subscriber.listens(brandId, type)) jobs.push(subscriber.job);
    }
    return jobs;
  }

  /**
   * The event for listeners already known (`jobsFor`), or null when there are none. `origin` (the
   * order's shop platform, null: none) keeps a listener bound to another origin from getting a job;
   * the event itself is written as before, the brand listening.
   */
  function eventWith<T extends EventType>(
    listeners: readonly string[],
    brandId: string,
    type: T,
    at: Date,
    data: () => EventPayloads[T],
    origin?: string | null,
  ): OutboxEvent<T> | null {
    if (listeners.length === 0) return null;
    const fromHere =
      origin === undefined
        ? listeners
        : listeners.filter((job) => (originOfJob.get(job) ?? origin) === origin);
    const built = { type, data: data() };
    const jobs = fromHere.filter((job) => acceptsOfJob.get(job)?.(built) ?? true);
    // Every listener declined this one (a notification with nothing to tell): nothing is written.
    if (jobs.length === 0 && listeners.every((job) => acceptsOfJob.has(job))) return null;
    const event: OutboxEvent<T> = { id: prefixedId('msg', 12), type, brandId, data: built.data, at, jobs };
    const queues = jobs.map((job) => queueOf.get(job)?.(event) ?? null);
    return queues.some((queue) => queue !== null) ? { ...event, queues } : event;
  }

  return {
    jobsFor,
    eventWith,

    /** The event to write with the change, or null when nobody listens. */
    async event<T extends EventType>(
      brandId: string,
      type: T,
      at: Date,
      data: () => EventPayloads[T],
    ): Promise<OutboxEvent<T> | null> {
      const jobs = await jobsFor(brandId, type);
      if (!options.originOf || !jobs.some((job) => originOfJob.has(job)))
        return eventWith(jobs, brandId, type, at, data);
      // Built once: the order's reference tells where it came from.
      let built: EventPayloads[T] | undefined;
      const payload = () => (built ??= data());
      const ref = (payload() as { order?: { tracking_ref?: unknown } }).order?.tracking_ref;
      const origin = typeof ref === 'string' ? await options.originOf(ref) : null;
      return eventWith(jobs, brandId, type, at, payload, origin);
    },
  };
}
