/**
 * The search threads: a fixed number of workers (dist/worker.js), each running one job at a time
 * with its own solver table and its own cancel flag. A worker that dies is replaced, and its job
 * is answered with an error, never left hanging.
 */
import { WORKER_HEAP_MB } from '../engine/limits';
import { Worker } from 'node:worker_threads';
import type { SearchJob, WorkerMessage } from './messages';

interface Slot {
  worker: Worker | null;
  cancel: Int32Array;
  job: SearchJob | null;
  /** The configuration the worker was started with (see WorkerPool.config). */
  config: string;
}

export class WorkerPool {
  private slots: Slot[] = [];
  private disposed = false;

  constructor(
    size: number,
    private readonly workerPath: string,
    private readonly onMessage: (m: WorkerMessage) => void,
    /** Transposition-table memory of each worker's solver (MiB; undefined: the solver's default). */
    private tableMb?: number,
    /** Threads of each worker's solver (its helpers share its table). */
    private solverThreads = 1,
  ) {
    this.resize(size);
  }

  get size(): number {
    return this.slots.length;
  }

  /** What a worker is started with: a worker started otherwise is replaced once it is idle. */
  private get config(): string {
    return `${this.tableMb ?? ''}|${this.solverThreads}`;
  }

  /**
   * Changes the number of workers, the solver threads of each and their table memory. Busy
   * workers beyond the new size are cancelled; workers started with other threads or table memory
   * are replaced when idle (at once, or when their job ends), so that a setting never waits for
   * a restart of the server.
   */
  resize(size: number, solverThreads = this.solverThreads, tableMb = this.tableMb): void {
    this.solverThreads = solverThreads;
    this.tableMb = tableMb;
    size = Math.max(1, Math.floor(size));
    while (this.slots.length < size) {
      this.slots.push({ worker: null, cancel: new Int32Array(new SharedArrayBuffer(4)), job: null, config: '' });
    }
    for (const s of this.slots) if (s.job === null) this.retireIfStale(s);
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

  /** An idle worker started with another configuration goes (the next job starts a new one). */
  private retireIfStale(slot: Slot): void {
    if (slot.worker && slot.config !== this.config) {
      const w = slot.worker;
      slot.worker = null;
      void w.terminate();
    }
  }

  private ensureWorker(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    slot.config = this.config;
    const w = new Worker(this.workerPath, {
      workerData: { cancel: slot.cancel.buffer, tableMb: this.tableMb, solverThreads: this.solverThreads },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    w.on('message', (m: WorkerMessage) => {
      if (slot.job && slot.job.id === m.id && m.type !== 'progress') {
        slot.job = null;
        this.retireIfStale(slot);
      }
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
