/**
 * The process's CPU that no search thread counts (V8's garbage-collector threads, the main thread's
 * bookkeeping of answers and store writes), shared among the documents whose background work ran
 * meanwhile, in proportion to what each was charged: so a document's background budget counts all
 * the CPU its work costs. (A 12x12 record's workers made so much garbage that collecting it added
 * 15-18% to their own time, outside every budget.) Work for edits is left out: it is not background.
 */
const processMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export class CpuOverhead {
  private last = processMs();
  /** CPU charged to documents since `last` (their workers' time, their re-analyses), by document. */
  private readonly charged = new Map<string, number>();
  private chargedTotal = 0;
  /** Foreground work (analyses after edits) since `last`: not charged to anyone. */
  private foregroundMs = 0;

  charge(owner: string, ms: number): void {
    this.charged.set(owner, (this.charged.get(owner) ?? 0) + ms);
    this.chargedTotal += ms;
  }

  foreground(ms: number): void {
    this.foregroundMs += ms;
  }

  /** The CPU not yet counted since the last call, split among the documents charged meanwhile. */
  settle(): Map<string, number> {
    const now = processMs();
    const extra = now - this.last - this.chargedTotal - this.foregroundMs;
    const shares = new Map<string, number>();
    if (extra > 0 && this.chargedTotal > 0)
      for (const [owner, ms] of this.charged) shares.set(owner, (extra * ms) / this.chargedTotal);
    this.last = now;
    this.charged.clear();
    this.chargedTotal = 0;
    this.foregroundMs = 0;
    return shares;
  }
}
