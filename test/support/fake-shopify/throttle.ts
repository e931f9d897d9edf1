/**
 * The GraphQL Admin API's calculated-cost limit: a leaky bucket per app and shop. A request needs its
 * requested cost available, then is charged its actual cost; points come back continuously at
 * `restoreRate` per second. Standard plan: 2000 points, 100 points/second.
 * (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits)
 */
export interface ThrottleOptions {
  maximumAvailable: number;
  restoreRate: number;
}

export const STANDARD_PLAN: ThrottleOptions = { maximumAvailable: 2000, restoreRate: 100 };

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export class LeakyBucket {
  private available: number;
  private updatedAt = Date.now();

  constructor(private readonly options: ThrottleOptions) {
    this.available = options.maximumAvailable;
  }

  private refill(): void {
    const now = Date.now();
    const restored = ((now - this.updatedAt) / 1000) * this.options.restoreRate;
    this.available = Math.min(this.options.maximumAvailable, this.available + restored);
    this.updatedAt = now;
  }

  /** Takes `requested` points when available; false (nothing taken) means THROTTLED. */
  tryTake(requested: number): boolean {
    this.refill();
    if (this.available < requested) return false;
    this.available -= requested;
    return true;
  }

  /** Gives back what the request did not use (requested − actual), as Shopify does. */
  refund(points: number): void {
    this.available = Math.min(this.options.maximumAvailable, this.available + points);
  }

  /** Empties the bucket: the next requests are throttled until points are restored. */
  drain(): void {
    this.refill();
    this.available = 0;
  }

  status(): ThrottleStatus {
    this.refill();
    return {
      maximumAvailable: this.options.maximumAvailable,
      currentlyAvailable: Math.floor(this.available),
      restoreRate: this.options.restoreRate,
    };
  }
}
