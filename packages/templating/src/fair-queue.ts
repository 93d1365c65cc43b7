/**
 * Waiting work of many tenants, served in turns: each tenant has its own first-in first-out
 * queue, tenants with work wait in a ring, and the next item comes from the first tenant in the
 * ring that holds fewer than `cap` items in progress; a served tenant goes to the end of the ring.
 * So one tenant's hundred waiting items delay another's one by at most one turn. Work of no
 * tenant (the service's own, fixed content) takes turns too but is never capped.
 */
export class FairQueue<T> {
  private readonly queues = new Map<string, T[]>();
  private readonly inProgress = new Map<string, number>();
  /** tenants with waiting items, in the order of their next turn */
  private readonly ring: string[] = [];

  push(tenant: string | undefined, item: T): void {
    const key = keyOf(tenant);
    const queue = this.queues.get(key);
    if (queue) {
      queue.push(item);
      return;
    }
    this.queues.set(key, [item]);
    this.ring.push(key);
  }

  /** Whether an item could be taken now with this cap. */
  waiting(cap: number): boolean {
    return this.ring.some((key) => this.mayStart(key, cap));
  }

  /** Takes the next item in turn (counted in progress until `done`), or undefined when every tenant with work is at its cap. */
  next(cap: number): T | undefined {
    const index = this.ring.findIndex((key) => this.mayStart(key, cap));
    if (index === -1) return undefined;
    const key = this.ring[index]!;
    const queue = this.queues.get(key)!;
    const item = queue.shift()!;
    this.ring.splice(index, 1);
    if (queue.length > 0) this.ring.push(key);
    else this.queues.delete(key);
    this.inProgress.set(key, (this.inProgress.get(key) ?? 0) + 1);
    return item;
  }

  /** An item of the tenant's that `next` gave out has ended. */
  done(tenant: string | undefined): void {
    const key = keyOf(tenant);
    const left = (this.inProgress.get(key) ?? 0) - 1;
    if (left > 0) this.inProgress.set(key, left);
    else this.inProgress.delete(key);
  }

  get length(): number {
    let total = 0;
    for (const queue of this.queues.values()) total += queue.length;
    return total;
  }

  private mayStart(key: string, cap: number): boolean {
    return key === serviceKey || (this.inProgress.get(key) ?? 0) < cap;
  }
}

/** No account id can be empty, so the service's own work cannot share a tenant's turn. */
const serviceKey = '';
const keyOf = (tenant: string | undefined) => tenant ?? serviceKey;
