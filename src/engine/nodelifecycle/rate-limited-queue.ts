// The per-zone NoExecute tainting queue (pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go) and its
// limiters (client-go flowcontrol over golang.org/x/time/rate). Clock passed in: each call takes `now` (ms).

/** EvictionRateLimiterBurst: at most one taint per 1/qps seconds per zone. */
export const EVICTION_RATE_LIMITER_BURST = 1
/** NodeEvictionPeriod: how often doNoExecuteTaintingPass drains the queues. */
export const NODE_EVICTION_PERIOD_MS = 100

export interface RateLimiter {
  /** float32, as flowcontrol reports it; the never-limiter reports 1. */
  qps(): number
  tryAccept(now: number): boolean
}

/** rate.NewLimiter(qps, burst): starts full; tokens accrue at qps up to burst; a refused request changes nothing. */
export class TokenBucket implements RateLimiter {
  private tokens = 0
  private last: number | undefined
  constructor(
    readonly rate: number,
    private readonly burst = EVICTION_RATE_LIMITER_BURST,
  ) {}
  qps(): number {
    return Math.fround(this.rate)
  }
  tryAccept(now: number): boolean {
    const tokens = this.last === undefined ? this.burst : Math.min(this.burst, this.tokens + (Math.max(0, now - this.last) / 1000) * this.rate)
    if (tokens < 1) return false
    this.tokens = tokens - 1
    this.last = this.last === undefined ? now : Math.max(this.last, now)
    return true
  }
  /** When the next token is available (for estimates). */
  nextTokenAt(now: number): number {
    if (this.last === undefined) return now
    const tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.last) / 1000) * this.rate)
    return tokens >= 1 ? now : now + ((1 - tokens) / this.rate) * 1000
  }
}

/** NewFakeNeverRateLimiter: refuses everything, yet reports QPS 1 (so SwapLimiter(1) is a no-op on it). */
export class NeverLimiter implements RateLimiter {
  qps(): number {
    return 1
  }
  tryAccept(): boolean {
    return false
  }
}

export interface TimedValue {
  value: string
  uid: string
  addedAt: number
  processAt: number
}

/** Returns [done, wait]: done removes the head for good (it stays de-duplicated); otherwise it is retried after wait. */
export type ActionFunc = (v: TimedValue) => [boolean, number]

export class RateLimitedTimedQueue {
  limiter: RateLimiter
  private queue: TimedValue[] = []
  /** UniqueQueue's set: a value is added only once until Remove()d, even after it left the heap. */
  private readonly set = new Set<string>()

  constructor(qps: number) {
    this.limiter = new TokenBucket(qps)
  }

  /** Heap order is by processAt; ties keep insertion order here (upstream: arbitrary). */
  private insert(v: TimedValue): void {
    let i = this.queue.length
    while (i > 0 && this.queue[i - 1].processAt > v.processAt) i--
    this.queue.splice(i, 0, v)
  }

  add(value: string, uid: string, now: number): boolean {
    if (this.set.has(value)) return false
    this.set.add(value)
    this.insert({value, uid, addedAt: now, processAt: now})
    return true
  }

  remove(value: string): boolean {
    const had = this.set.delete(value)
    this.queue = this.queue.filter((v) => v.value !== value)
    return had
  }

  has(value: string): boolean {
    return this.set.has(value)
  }

  pending(): readonly TimedValue[] {
    return this.queue
  }

  /** Try: every loop turn takes a token before looking at the head, so a not-yet-due head still uses one. */
  try(now: number, fn: ActionFunc): void {
    while (this.queue.length > 0) {
      if (!this.limiter.tryAccept(now)) break
      const head = this.queue[0]
      if (now < head.processAt) break
      const [done, wait] = fn(head)
      this.queue.shift()
      if (!done) this.insert({...head, processAt: now + wait + 1e-6})
    }
  }

  /** SwapLimiter: no-op when the QPS is equal; ≤ 0 never; a saturated old limiter drains the new one. */
  swapLimiter(newQPS: number, now: number): void {
    if (this.limiter.qps() === Math.fround(newQPS)) return
    if (newQPS <= 0) {
      this.limiter = new NeverLimiter()
      return
    }
    const next = new TokenBucket(newQPS)
    if (!this.limiter.tryAccept(now)) next.tryAccept(now)
    this.limiter = next
  }
}
