/**
 * The solver on several threads (every core, a setting caps it): one transposition table in shared
 * memory (table.ts, SharedTable) and "lazy SMP". The calling thread runs the ordinary search; each
 * helper thread runs the same search of the same position on the same table. Two things spread
 * them: solve()'s loop over the root moves goes through them in reverse order in a helper, so the
 * threads prove different root moves first and then find each other's proofs in the table; and at
 * every node with enough undrawn lines a move that another thread is searching right now is
 * searched last (SearchingNow in table.ts: simplified ABDADA), so threads that meet at a node
 * take different moves. Whichever thread finishes first gives the answer; the others are
 * stopped. Every bound in the table is proven by the thread that stored it, and an answer is a
 * whole search of one thread, so values, best moves and move values are exactly those of one
 * thread: the same as on one thread (only the time and the node counts vary).
 *
 * The API is Solver's (ThreadedSolver extends it) and synchronous: helpers take their task by
 * message and answer through shared memory, so the calling thread never waits for an event loop.
 *
 * Control words (Int32, shared): TASK = id of the current task (helpers stop when it changes),
 * READY = id of the task whose answer a helper wrote, KNODES and NODES_REST = the helpers' nodes
 * for the current task (thousands, and the rest; added as they search, so a result counts them
 * when the calling thread finishes first), BUSY_MS = milliseconds the helpers have spent
 * searching, all tasks (wall time, never less than their CPU time: what a CPU budget must count),
 * ALL_KNODES and ALL_REST = the helpers' nodes, all tasks, also those finished after the caller
 * moved on.
 * Answer buffer (Int32, shared, written and read under its lock word): see writeAnswer/readAnswer.
 */
import { Worker, parentPort, workerData } from 'node:worker_threads';
import { geometryOf, type BoardGeometry } from '../board/geometry';
import { BoardState } from '../board/state';
import { Solver } from './solver';
import { sharedTableMemory, type SharedTableMemory } from './table';
import { configuredTableBits } from './search';
import { type SolveOptions, type SolveResult, type SolverConfig, type WindowResult } from './types';

const TASK = 0,
  READY = 1,
  KNODES = 2,
  NODES_REST = 3,
  BUSY_MS = 4,
  ALL_KNODES = 5,
  ALL_REST = 6;
/** Answer buffer words. */
const LOCK = 0,
  ID = 1,
  STATUS = 2,
  VALUE = 3,
  LOWER = 4,
  UPPER = 5,
  NODES_HI = 6,
  NODES_LO = 7,
  NBEST = 8,
  MOVE_VALUES = 9,
  HEAD = 10;
/** Stands for null in the answer buffer. */
const NONE = -0x7fffffff;

type TaskKind = 'solve' | 'window';
interface HelperTask {
  id: number;
  kind: TaskKind;
  width: number;
  height: number;
  lines: number[];
  alpha: number;
  beta: number;
  moveValues: boolean;
  valueOnly: boolean;
  timeBudgetMs?: number;
  nodeBudget?: number;
  cfg: SolverConfig;
  mem: SharedTableMemory;
  /** Identifies mem across messages (a SharedArrayBuffer arrives as a new object each time). */
  memId: number;
  control: SharedArrayBuffer;
  answer: SharedArrayBuffer;
}

/** The configuration a helper can be sent: a leaf evaluator function cannot cross threads. */
function portable(cfg: SolverConfig): SolverConfig | null {
  if (typeof cfg.leafEvaluator === 'function') return null;
  return { ...cfg };
}

export interface ThreadOptions {
  /** Threads in all, the calling one included (1: an ordinary Solver's work on a shared table). */
  threads: number;
  /** The helper thread's script: a module whose top level calls runSolverHelper(). */
  helperScript: string;
  /** Starts a helper thread (default: `new Worker(script, { workerData })`; tests load a .ts source through tsx). */
  spawn?: (script: string, workerData: unknown) => Worker;
}

export class ThreadedSolver extends Solver {
  private readonly helpers: (Worker | null)[];
  private readonly control = new Int32Array(new SharedArrayBuffer(32));
  private mem: SharedTableMemory | null = null;
  private memGeometry: BoardGeometry | null = null;
  private memId = 0;
  private answer: Int32Array | null = null;
  /** Int32 words of the answer buffer for L lines. */
  static answerWords(L: number): number {
    return HEAD + 4 * L;
  }
  private nextId = 1;
  private readonly portableCfg: SolverConfig | null;
  /** Searches shared with helpers, and how many of them a helper finished first. */
  readonly stats = { shared: 0, helperAnswers: 0, helperNodes: 0 };

  constructor(
    cfg: SolverConfig,
    private readonly threadOptions: ThreadOptions,
  ) {
    // no helpers: the one-thread table (no locks)
    super(cfg, threadOptions.threads > 1 ? (g) => this.memoryFor(g) : undefined);
    this.portableCfg = portable(cfg);
    this.helpers = new Array(Math.max(0, Math.floor(threadOptions.threads) - 1)).fill(null);
  }

  /**
   * Milliseconds the helpers have searched since this solver started (all tasks; wall time, which
   * is never less than their CPU time): a CPU budget adds it to the calling thread's CPU time.
   */
  get helperBusyMs(): number {
    return Atomics.load(this.control, BUSY_MS);
  }

  /** Nodes the helpers have searched since this solver started: all tasks, whoever finished first. */
  get helperNodesSearched(): number {
    return Atomics.load(this.control, ALL_KNODES) * 1000 + Atomics.load(this.control, ALL_REST);
  }

  /** Threads in all. */
  get threads(): number {
    return this.helpers.length + 1;
  }

  /** Stops the helper threads (a later solve starts them again). */
  dispose(): void {
    Atomics.store(this.control, TASK, 0);
    for (let i = 0; i < this.helpers.length; i++) {
      void this.helpers[i]?.terminate();
      this.helpers[i] = null;
    }
  }

  private memoryFor(g: BoardGeometry): SharedTableMemory {
    // by size, as engineFor() keeps its engine: one table per board size, whichever geometry object names it
    const m = this.memGeometry;
    if (this.mem === null || m === null || m.width !== g.width || m.height !== g.height) {
      const keyWords = (g.lineCount + 31) >>> 5;
      const bits = configuredTableBits(this.cfg, keyWords);
      this.mem = null; // release the old table first
      this.mem = sharedTableMemory(keyWords, bits, this.cfg.bucket ?? 4, this.cfg.replacement !== 'depth');
      this.memGeometry = g;
      this.memId++;
      this.answer = new Int32Array(new SharedArrayBuffer(4 * ThreadedSolver.answerWords(g.lineCount)));
    }
    return this.mem;
  }

  private helper(i: number): Worker {
    let w = this.helpers[i];
    if (w === null) {
      const data = { dabSolverHelper: true };
      const spawn = this.threadOptions.spawn;
      w = spawn
        ? spawn(this.threadOptions.helperScript, data)
        : new Worker(this.threadOptions.helperScript, { workerData: data });
      w.unref(); // a process may end while its helpers idle
      w.on('error', () => {
        if (this.helpers[i] === w) this.helpers[i] = null;
      });
      w.on('exit', () => {
        if (this.helpers[i] === w) this.helpers[i] = null;
      });
      this.helpers[i] = w;
    }
    return w;
  }

  /** Sends the task to every helper; returns its id, or 0 when helpers cannot take it. */
  private begin(state: BoardState, kind: TaskKind, options: SolveOptions, alpha: number, beta: number): number {
    if (this.helpers.length === 0 || this.portableCfg === null || typeof options.leafEvaluator === 'function') return 0;
    const g = state.geometry;
    const mem = this.memoryFor(g);
    const id = this.nextId++;
    Atomics.store(this.control, KNODES, 0);
    Atomics.store(this.control, NODES_REST, 0);
    Atomics.store(this.control, TASK, id);
    const lines: number[] = [];
    for (let l = 0; l < g.lineCount; l++) if (state.drawn[l]) lines.push(l);
    const task: HelperTask = {
      id,
      kind,
      width: g.width,
      height: g.height,
      lines,
      alpha,
      beta,
      moveValues: options.moveValues === true,
      valueOnly: options.valueOnly === true,
      timeBudgetMs: options.timeBudgetMs,
      nodeBudget: options.nodeBudget,
      cfg: this.portableCfg,
      mem,
      memId: this.memId,
      control: this.control.buffer as SharedArrayBuffer,
      answer: this.answer!.buffer as SharedArrayBuffer,
    };
    for (let i = 0; i < this.helpers.length; i++) this.helper(i).postMessage(task);
    this.stats.shared++;
    return id;
  }

  private stopFor(id: number, own?: () => boolean): () => boolean {
    const control = this.control;
    return own ? () => Atomics.load(control, READY) === id || own() : () => Atomics.load(control, READY) === id;
  }

  /** Stops the helpers; the helpers' answer when one finished first (and ours did not), else ours. */
  private end<T extends { nodes: number }>(id: number, own: T, finished: boolean, read: (a: Int32Array) => T): T {
    const control = this.control;
    let res = own;
    if (!finished && Atomics.load(control, READY) === id) {
      const theirs = withLock(this.answer!, (a) => (a[ID] === id ? read(a) : null));
      if (theirs) {
        res = theirs;
        this.stats.helperAnswers++;
      }
    }
    Atomics.store(control, TASK, 0);
    const helperNodes = Atomics.load(control, KNODES) * 1000 + Atomics.load(control, NODES_REST);
    this.stats.helperNodes += helperNodes;
    res.nodes = own.nodes + helperNodes; // the helpers' nodes, theirs included
    return res;
  }

  override solve(state: BoardState, options: SolveOptions = {}): SolveResult {
    const id = this.begin(state, 'solve', options, 0, 0);
    if (id === 0) return super.solve(state, options);
    const own = super.solve(state, { ...options, shouldStop: this.stopFor(id, options.shouldStop) });
    const L = state.geometry.lineCount;
    return this.end(id, own, own.status === 'exact', (a) => ({ ...readSolve(a, L), ms: own.ms }));
  }

  override searchWindow(state: BoardState, alpha: number, beta: number, options: SolveOptions = {}): WindowResult {
    const id = this.begin(state, 'window', options, alpha, beta);
    if (id === 0) return super.searchWindow(state, alpha, beta, options);
    const own = super.searchWindow(state, alpha, beta, {
      ...options,
      shouldStop: this.stopFor(id, options.shouldStop),
    });
    return this.end(id, own, own.status === 'done', (a) => ({ ...readWindow(a), ms: own.ms }));
  }
}

/** Runs `f` on the answer buffer under its lock word. */
function withLock<T>(a: Int32Array, f: (a: Int32Array) => T): T {
  while (Atomics.compareExchange(a, LOCK, 0, 1) !== 0);
  try {
    return f(a);
  } finally {
    Atomics.store(a, LOCK, 0);
  }
}

function writeHead(a: Int32Array, status: boolean, value: number | null, lower: number, upper: number, nodes: number) {
  a[STATUS] = status ? 1 : 0;
  a[VALUE] = value === null ? NONE : value;
  a[LOWER] = lower;
  a[UPPER] = upper;
  a[NODES_HI] = Math.floor(nodes / 0x40000000);
  a[NODES_LO] = nodes % 0x40000000;
}

/** A solve's answer into an answer buffer (12 + 4L words; exported for the round-trip test). */
export function writeSolve(a: Int32Array, r: SolveResult, L: number): void {
  writeHead(a, r.status === 'exact', r.value, r.lower, r.upper, r.nodes);
  a[NBEST] = r.best.length;
  r.best.forEach((m, i) => (a[HEAD + i] = m));
  a[MOVE_VALUES] = r.moveValues ? 1 : 0;
  if (r.moveValues && r.moveBounds) {
    for (let l = 0; l < L; l++) {
      a[HEAD + L + l] = r.moveValues[l] ?? NONE;
      const b = r.moveBounds[l];
      a[HEAD + 2 * L + 2 * l] = b ? b[0] : NONE;
      a[HEAD + 2 * L + 2 * l + 1] = b ? b[1] : NONE;
    }
  }
}

/** The answer writeSolve wrote (ms 0). */
export function readSolve(a: Int32Array, L: number): SolveResult {
  const r: SolveResult = {
    status: a[STATUS] === 1 ? 'exact' : 'unknown',
    value: a[VALUE] === NONE ? null : a[VALUE],
    lower: a[LOWER],
    upper: a[UPPER],
    best: Array.from(a.subarray(HEAD, HEAD + a[NBEST])),
    nodes: a[NODES_HI] * 0x40000000 + a[NODES_LO],
    ms: 0,
  };
  if (a[MOVE_VALUES] === 1) {
    r.moveValues = [];
    r.moveBounds = [];
    for (let l = 0; l < L; l++) {
      const v = a[HEAD + L + l],
        lo = a[HEAD + 2 * L + 2 * l],
        hi = a[HEAD + 2 * L + 2 * l + 1];
      r.moveValues.push(v === NONE ? null : v);
      r.moveBounds.push(lo === NONE ? null : [lo, hi]);
    }
  }
  return r;
}

/** A window search's answer into an answer buffer: the head, and its proven move in NBEST and HEAD (line, lower). */
export function writeWindow(a: Int32Array, r: WindowResult): void {
  writeHead(a, r.status === 'done', null, r.lower, r.upper, r.nodes);
  a[NBEST] = r.move ? 1 : 0;
  if (r.move) {
    a[HEAD] = r.move.line;
    a[HEAD + 1] = r.move.lower;
  }
}

/** The answer writeWindow wrote (ms 0). */
export function readWindow(a: Int32Array): WindowResult {
  return {
    status: a[STATUS] === 1 ? 'done' : 'unknown',
    lower: a[LOWER],
    upper: a[UPPER],
    nodes: a[NODES_HI] * 0x40000000 + a[NODES_LO],
    ms: 0,
    ...(a[NBEST] === 1 ? { move: { line: a[HEAD], lower: a[HEAD + 1] } } : {}),
  };
}

/** A helper's solver: the shared table of the task, root moves in reverse. */
class HelperSolver extends Solver {
  constructor(cfg: SolverConfig, mem: SharedTableMemory) {
    super(cfg, () => mem);
    this.reverseRoot = true;
  }
}

/**
 * Adds n nodes to a count kept in two control words, thousands and the rest. The rest of many
 * additions adds up: whole thousands are carried over before the word could overflow.
 */
function addNodes(control: Int32Array, thousands: number, rest: number, n: number): void {
  Atomics.add(control, thousands, Math.floor(n / 1000));
  if (Atomics.add(control, rest, n % 1000) + (n % 1000) >= 1_000_000) {
    Atomics.sub(control, rest, 1_000_000);
    Atomics.add(control, thousands, 1000);
  }
}

/** The helper thread's loop: call it at the top level of the helper script. */
export function runSolverHelper(): void {
  if (!parentPort || !workerData || (workerData as { dabSolverHelper?: boolean }).dabSolverHelper !== true) return;
  let current: { memId: number; solver: Solver } | null = null;
  parentPort.on('message', (t: HelperTask) => {
    const control = new Int32Array(t.control);
    if (Atomics.load(control, TASK) !== t.id) return; // stale: the caller has moved on
    if (current === null || current.memId !== t.memId)
      current = { memId: t.memId, solver: new HelperSolver(t.cfg, t.mem) };
    const state = new BoardState(geometryOf(t.width, t.height));
    for (const l of t.lines) state.drawSilently(l);
    // the nodes counted into the task's KNODES and NODES_REST so far: a search reports as it goes
    // (every ~65k nodes), so that a caller finishing first still counts the helpers' work in its
    // result (all but the last ~65k nodes of each helper)
    let counted = 0;
    const count = (nodes: number) => {
      if (nodes <= counted || Atomics.load(control, TASK) !== t.id) return;
      addNodes(control, KNODES, NODES_REST, nodes - counted);
      counted = nodes;
    };
    const options: SolveOptions = {
      moveValues: t.moveValues,
      valueOnly: t.valueOnly,
      timeBudgetMs: t.timeBudgetMs,
      nodeBudget: t.nodeBudget,
      shouldStop: () => Atomics.load(control, TASK) !== t.id || Atomics.load(control, READY) === t.id,
      onProgress: (p) => count(p.nodes),
    };
    const answer = new Int32Array(t.answer);
    const t0 = performance.now();
    const L = state.geometry.lineCount;
    let finished: boolean, nodes: number, write: (a: Int32Array) => void;
    if (t.kind === 'solve') {
      const r = current.solver.solve(state, options);
      finished = r.status === 'exact';
      nodes = r.nodes;
      write = (a) => writeSolve(a, r, L);
    } else {
      const r = current.solver.searchWindow(state, t.alpha, t.beta, options);
      finished = r.status === 'done';
      nodes = r.nodes;
      write = (a) => writeWindow(a, r);
    }
    Atomics.add(control, BUSY_MS, Math.ceil(performance.now() - t0));
    addNodes(control, ALL_KNODES, ALL_REST, nodes);
    count(nodes);
    if (!finished) return;
    withLock(answer, (a) => {
      // only for the current task, and only the first answer
      if (Atomics.load(control, TASK) !== t.id || Atomics.load(control, READY) === t.id) return;
      write(a);
      a[ID] = t.id;
      Atomics.store(control, READY, t.id);
    });
  });
}
