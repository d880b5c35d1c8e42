/**
 * Schedules board searches on the worker thread for the language server: deduplicates positions,
 * caches results (bounded), drops work no open document needs, cancels the running search when
 * its position is no longer wanted, and restarts the worker if it dies.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { BoardState } from '../engine/board/state';
import type { Evaluation } from '../engine/analysis/evaluation';
import { deserializeEvaluation, type SearchJob, type WorkerMessage } from './messages';

export interface SearchBudget {
  timeBudgetMs: number;
  nodeBudget: number;
}

export interface SearchEvents {
  /** A search finished (exact or not): documents that wanted `key` should be re-analysed. */
  onResult(key: string): void;
  onProgress?(key: string, nodes: number, lower: number, upper: number): void;
  onStart?(key: string): void;
  onIdle?(): void;
}

const MAX_CACHE = 5_000;
/** Nimstring regions per searched position (after the solve, in the worker). */
const WORKER_NIM_BUDGET = 50_000;

export class SearchService {
  private worker: Worker | null = null;
  private readonly cancel = new Int32Array(new SharedArrayBuffer(4));
  private readonly cache = new Map<string, Evaluation>();
  private queue: SearchJob[] = [];
  private running: SearchJob | null = null;
  private nextId = 1;
  private wanted = new Map<string, Set<string>>();
  private disposed = false;

  constructor(
    private budget: SearchBudget,
    private readonly events: SearchEvents,
    private readonly workerPath = join(__dirname, 'worker.js'),
  ) {}

  setBudget(budget: SearchBudget): void {
    if (budget.timeBudgetMs === this.budget.timeBudgetMs && budget.nodeBudget === this.budget.nodeBudget) return;
    this.budget = budget;
    // Results that ran out of budget may be solvable now.
    for (const [k, e] of this.cache) if (e.status !== 'exact') this.cache.delete(k);
  }

  /** The evaluation if known; otherwise queue it for `owner` (a document) and return undefined. */
  lookup(state: BoardState, owner: string): Evaluation | undefined {
    const key = state.key();
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit); // LRU order
      return hit;
    }
    let set = this.wanted.get(owner);
    if (!set) {
      set = new Set();
      this.wanted.set(owner, set);
    }
    if (!set.has(key)) {
      set.add(key);
      if (this.running?.key !== key && !this.queue.some((j) => j.key === key)) {
        this.queue.push({
          id: this.nextId++,
          key,
          width: state.geometry.width,
          height: state.geometry.height,
          drawn: new Uint8Array(state.drawn),
          nodeBudget: this.budget.nodeBudget,
          timeBudgetMs: this.budget.timeBudgetMs,
          nimBudget: WORKER_NIM_BUDGET,
        });
      }
    }
    return undefined;
  }

  /** The evaluation if already known; never queues work. */
  peek(state: BoardState): Evaluation | undefined {
    return this.cache.get(state.key());
  }

  /** A document starts a new analysis: forget what it wanted before (call before its lookups). */
  beginOwner(owner: string): void {
    this.wanted.set(owner, new Set());
  }

  /** After an analysis pass: drop queued or running work nobody wants any more, then run. */
  commit(): void {
    const all = new Set<string>();
    for (const s of this.wanted.values()) for (const k of s) all.add(k);
    this.queue = this.queue.filter((j) => all.has(j.key));
    if (this.running && !all.has(this.running.key)) Atomics.store(this.cancel, 0, this.running.id);
    this.pump();
  }

  forgetOwner(owner: string): void {
    this.wanted.delete(owner);
    this.commit();
  }

  /** Put the positions of `owner` first: late positions of a record first (they are quick and fill the table). */
  prioritise(keysInOrder: string[]): void {
    const rank = new Map(keysInOrder.map((k, i) => [k, i]));
    this.queue.sort((a, b) => (rank.get(a.key) ?? 1e9) - (rank.get(b.key) ?? 1e9));
  }

  isBusy(): boolean {
    return this.running !== null || this.queue.length > 0;
  }

  dispose(): void {
    this.disposed = true;
    void this.worker?.terminate();
    this.worker = null;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.workerPath, {
      workerData: { cancel: this.cancel.buffer },
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
    });
    w.on('message', (m: WorkerMessage) => this.onMessage(m));
    w.on('error', (e) => this.onCrash(String(e?.message ?? e)));
    w.on('exit', (code) => {
      if (this.worker === w) {
        this.worker = null;
        if (this.running) this.onCrash(`worker exited with code ${code}`);
      }
    });
    this.worker = w;
    return w;
  }

  private onCrash(message: string): void {
    const job = this.running;
    this.running = null;
    this.worker = null;
    if (job) {
      this.store(job.key, {
        status: 'unknown',
        method: 'search',
        value: null,
        lower: -Infinity,
        upper: Infinity,
        best: [],
        note: `search failed: ${message}`,
      });
      this.events.onResult(job.key);
    }
    this.pump();
  }

  private store(key: string, e: Evaluation): void {
    this.cache.set(key, e);
    if (this.cache.size > MAX_CACHE) this.cache.delete(this.cache.keys().next().value!);
  }

  private onMessage(m: WorkerMessage): void {
    if (m.type === 'progress') {
      this.events.onProgress?.(m.key, m.nodes, m.lower, m.upper);
      return;
    }
    const job = this.running;
    if (!job || job.id !== m.id) return;
    this.running = null;
    if (m.type === 'result') {
      const e = deserializeEvaluation(m.evaluation);
      // A cancelled search is not an answer: leave it uncached so it runs again when wanted.
      if (e.note !== 'cancelled') this.store(m.key, e);
    } else {
      this.store(m.key, {
        status: 'unknown',
        method: 'search',
        value: null,
        lower: -Infinity,
        upper: Infinity,
        best: [],
        note: `search failed: ${m.message}`,
      });
    }
    this.events.onResult(m.key);
    this.pump();
  }

  private pump(): void {
    if (this.disposed || this.running || this.queue.length === 0) {
      if (!this.running && this.queue.length === 0) this.events.onIdle?.();
      return;
    }
    const job = this.queue.shift()!;
    job.nodeBudget = this.budget.nodeBudget;
    job.timeBudgetMs = this.budget.timeBudgetMs;
    this.running = job;
    this.events.onStart?.(job.key);
    this.ensureWorker().postMessage(job);
  }
}
