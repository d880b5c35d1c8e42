/**
 * The search threads: a fixed number of workers (dist/worker.js), each running one job at a time
 * with its own solver table and its own cancel flag. A worker that dies is replaced, and its job
 * is answered with an error, never left hanging.
 */
import { Worker } from 'node:worker_threads';
import type { SearchJob, WorkerMessage } from './messages';

interface Slot {
  worker: Worker | null;
  cancel: Int32Array;
  job: SearchJob | null;
}

export class WorkerPool {
  private slots: Slot[] = [];
  private disposed = false;

  constructor(
    size: number,
    private readonly workerPath: string,
    private readonly onMessage: (m: WorkerMessage) => void,
    /** Transposition-table memory of each worker's solver (MiB; undefined: the solver's default). */
    private readonly tableMb?: number,
    /** Threads of each worker's solver (its helpers share its table). */
    private solverThreads = 1,
  ) {
    this.resize(size);
  }

  get size(): number {
    return this.slots.length;
  }

  /**
   * Changes the number of workers (and of solver threads each, for workers started from now on);
   * busy workers beyond the new size finish their job and then go.
   */
  resize(size: number, solverThreads = this.solverThreads): void {
    this.solverThreads = solverThreads;
    size = Math.max(1, Math.floor(size));
    while (this.slots.length < size) {
      this.slots.push({ worker: null, cancel: new Int32Array(new SharedArrayBuffer(4)), job: null });
    }
    for (const s of this.slots.splice(size)) {
      if (s.job) this.cancel(s.job.id);
      void s.worker?.terminate();
      if (s.job) this.onMessage({ type: 'error', id: s.job.id, key: s.job.key, message: 'cancelled', cpuMs: 0 });
    }
  }

  hasFreeSlot(): boolean {
    return !this.disposed && this.slots.some((s) => s.job === null);
  }

  running(): SearchJob[] {
    return this.slots.flatMap((s) => (s.job ? [s.job] : []));
  }

  start(job: SearchJob): void {
    const slot = this.slots.find((s) => s.job === null);
    if (!slot || this.disposed) throw new Error('no free search thread');
    slot.job = job;
    Atomics.store(slot.cancel, 0, 0);
    this.ensureWorker(slot).postMessage(job);
  }

  cancel(jobId: number): void {
    const slot = this.slots.find((s) => s.job?.id === jobId);
    if (slot) Atomics.store(slot.cancel, 0, jobId);
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.slots) {
      void s.worker?.terminate();
      s.worker = null;
    }
  }

  private ensureWorker(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    const w = new Worker(this.workerPath, {
      workerData: { cancel: slot.cancel.buffer, tableMb: this.tableMb, solverThreads: this.solverThreads },
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
    });
    w.on('message', (m: WorkerMessage) => {
      if (slot.job && slot.job.id === m.id && m.type !== 'progress') slot.job = null;
      this.onMessage(m);
    });
    w.on('error', (e) => this.crashed(slot, w, String(e?.message ?? e)));
    w.on('exit', (code) => this.crashed(slot, w, `search thread exited with code ${code}`));
    slot.worker = w;
    return w;
  }

  private crashed(slot: Slot, w: Worker, message: string): void {
    if (slot.worker !== w) return;
    slot.worker = null;
    const job = slot.job;
    slot.job = null;
    if (job && !this.disposed) this.onMessage({ type: 'error', id: job.id, key: job.key, message, cpuMs: 0 });
  }
}
