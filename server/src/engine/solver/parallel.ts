/**
 * Value-only proof of a position's exact value on several threads (worker_threads): the root moves
 * are split between workers, each with its own Solver (and transposition table, kept across its
 * tasks). Used by the 4x4 benchmark (`npm run bench:4x4`); not part of the language server.
 *
 * Root MTD: per root move m (one per class of moves that symmetries of the root map onto each
 * other) proven bounds [lo_m, hi_m]; the value lies in [a, b] = [max lo_m, max hi_m]. With the
 * guess g in [a, b], the tasks are null-window tests "v(m) >= t?" for t = g while g > a (one move
 * suffices: the first candidate first) and t = g + 2 while g < b (every move must fail for the
 * value to be <= g). Each test is a window search
 * of the child position (Solver.searchWindow), so every answer is a proven bound; tests made
 * useless by another answer are cancelled. Exactness is that of Solver.searchWindow.
 *
 * The worker is this same module, loaded again in the thread (the caller's loader, e.g. tsx, is
 * inherited through execArgv).
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { geometryOf } from '../board/geometry';
import { BoardState } from '../board/state';
import { Solver } from './solver';
import type { SolverConfig } from './types';
import { centreOutOrder, lineSymmetries } from './symmetry';

export interface ParallelOptions {
  /** Worker threads (default 2). */
  threads?: number;
  /** Solver configuration for every worker (default: tableBits 24). */
  config?: SolverConfig;
  /** First guess of the value (default 0). */
  guess?: number;
  /** Give up after about this many milliseconds (status 'unknown'). */
  timeBudgetMs?: number;
  /** A line of text per finished test. */
  log?: (line: string) => void;
}

export interface ParallelResult {
  status: 'exact' | 'unknown';
  value: number | null;
  lower: number;
  upper: number;
  /** Nodes searched by all workers. */
  nodes: number;
  ms: number;
  /** Null-window tests run (finished or cancelled). */
  tests: number;
}

interface Task {
  id: number;
  width: number;
  height: number;
  lines: number[];
  alpha: number;
  beta: number;
  budgetMs?: number;
}
interface Answer {
  id: number;
  status: 'done' | 'unknown';
  lower: number;
  upper: number;
  nodes: number;
  ms: number;
}

if (!isMainThread && workerData && workerData.dabSolverWorker === true) {
  const stop = new Int32Array(workerData.stop as SharedArrayBuffer);
  const solver = new Solver(workerData.config as SolverConfig);
  parentPort!.on('message', (t: Task) => {
    Atomics.store(stop, 0, 0);
    const st = new BoardState(geometryOf(t.width, t.height));
    for (const l of t.lines) st.play(l);
    const r = solver.searchWindow(st, t.alpha, t.beta, {
      shouldStop: () => Atomics.load(stop, 0) !== 0,
      timeBudgetMs: t.budgetMs,
    });
    const a: Answer = { id: t.id, status: r.status, lower: r.lower, upper: r.upper, nodes: r.nodes, ms: r.ms };
    parentPort!.postMessage(a);
  });
}

/** This module in a new thread: a .ts source is loaded through tsx (benchmarks run from source). */
function spawn(data: unknown): Worker {
  const file = fileURLToPath(import.meta.url);
  if (!file.endsWith('.ts')) return new Worker(file, { workerData: data });
  const code = `require('tsx/cjs/api').register(); require(${JSON.stringify(file)});`;
  return new Worker(code, { eval: true, workerData: data });
}

interface Slot {
  worker: Worker;
  stop: Int32Array;
  busy: { move: number; t: number; id: number } | null;
}

/** Prove the exact value of `state` (for the player to move) with root moves split between threads. */
export async function solveParallel(state: BoardState, options: ParallelOptions = {}): Promise<ParallelResult> {
  const t0 = Date.now();
  const g = state.geometry;
  const L = g.lineCount;
  const R = Array.from({ length: g.boxCount }, (_, b) => state.sidesDrawn(b)).filter((s) => s < 4).length;
  const log = options.log ?? (() => {});
  if (R === 0) return { status: 'exact', value: 0, lower: 0, upper: 0, nodes: 0, ms: 0, tests: 0 };
  // root moves, one per symmetry class
  const autos = lineSymmetries(g).filter((p) => {
    for (let l = 0; l < L; l++) if (state.drawn[l] !== state.drawn[p[l]]) return false;
    return true;
  });
  const seen = new Set<number>();
  const moves: number[] = [];
  for (const l of centreOutOrder(g).filter((l) => !state.drawn[l])) {
    if (seen.has(l)) continue;
    for (const p of autos) seen.add(p[l]);
    moves.push(l);
  }
  const played = (m: number): { lines: number[]; c: number } => {
    const st = state.clone();
    const before = st.score[st.toMove];
    const mover = st.toMove;
    st.play(m);
    return { lines: [m], c: st.score[mover] - before };
  };
  const base = g.allLines().filter((l) => state.drawn[l]);
  const lo = new Map<number, number>(),
    hi = new Map<number, number>(),
    cap = new Map<number, number>();
  for (const m of moves) {
    const c = played(m).c;
    cap.set(m, c);
    lo.set(m, c - (R - c));
    hi.set(m, R);
  }
  const bounds = (): [number, number] => {
    let a = -Infinity,
      b = -Infinity;
    for (const m of moves) {
      a = Math.max(a, lo.get(m)!);
      b = Math.max(b, hi.get(m)!);
    }
    return [a, b];
  };
  const fix = (t: number) => (((t - R) & 1) !== 0 ? t + 1 : t);
  let guess = fix(options.guess ?? 0);
  const threads = Math.max(1, options.threads ?? 2);
  const stops = Array.from({ length: threads }, () => new SharedArrayBuffer(4));
  const config = { tableBits: 24, ...options.config };
  const slots: Slot[] = stops.map((sab) => ({
    worker: spawn({ dabSolverWorker: true, stop: sab, config }),
    stop: new Int32Array(sab),
    busy: null,
  }));
  let nodes = 0,
    tests = 0,
    nextId = 1;
  const deadline = options.timeBudgetMs !== undefined ? t0 + options.timeBudgetMs : Infinity;

  /** Is the test "v(m) >= t" still informative? */
  const useful = (m: number, t: number) => lo.get(m)! < t && hi.get(m)! >= t;
  const pick = (): { move: number; t: number } | null => {
    const [a, b] = bounds();
    if (a >= b) return null;
    guess = Math.max(a, Math.min(b, guess)); // a and b have the parity of R
    const inflight = slots.filter((s) => s.busy).map((s) => s.busy!);
    const busyOn = (m: number, t: number) => inflight.some((x) => x.move === m && x.t === t);
    const needGe = a < guess; // value >= guess not yet proven
    const needLe = b > guess; // value <= guess not yet proven
    // 1. one test "v(m) >= guess" at a time
    if (needGe && !inflight.some((x) => x.t === guess)) {
      for (const m of moves) if (useful(m, guess)) return { move: m, t: guess };
    }
    // 2. every move must fail "v(m) >= guess + 2"
    if (needLe) {
      for (const m of moves) if (useful(m, guess + 2) && !busyOn(m, guess + 2)) return { move: m, t: guess + 2 };
    }
    // 3. other moves for "v(m) >= guess"
    if (needGe) {
      for (const m of moves) if (useful(m, guess) && !busyOn(m, guess)) return { move: m, t: guess };
    }
    return null;
  };

  return await new Promise<ParallelResult>((resolve, reject) => {
    let finished = false;
    const finish = (aborted: boolean) => {
      if (finished) return;
      finished = true;
      for (const s of slots) {
        Atomics.store(s.stop, 0, 1);
        void s.worker.terminate();
      }
      const [a, b] = bounds();
      const exact = !aborted && a === b;
      resolve({
        status: exact ? 'exact' : 'unknown',
        value: exact ? a : null,
        lower: a,
        upper: b,
        nodes,
        ms: Date.now() - t0,
        tests,
      });
    };
    const dispatch = () => {
      if (finished) return;
      const [a, b] = bounds();
      if (a >= b) {
        finish(false);
        return;
      }
      // cancel tests made useless
      for (const s of slots) if (s.busy && !useful(s.busy.move, s.busy.t)) Atomics.store(s.stop, 0, 1);
      for (const s of slots) {
        if (s.busy) continue;
        const job = pick();
        if (!job) break;
        const { move, t } = job;
        const c = cap.get(move)!;
        // v(m) = c + v(child) when m completes boxes (same player again), else -v(child)
        const [alpha, beta] = c > 0 ? [t - 1 - c, t - c] : [-t, -t + 1];
        const id = nextId++;
        s.busy = { move, t, id };
        Atomics.store(s.stop, 0, 0);
        const budgetMs = deadline === Infinity ? undefined : Math.max(1, deadline - Date.now());
        s.worker.postMessage({
          id,
          width: g.width,
          height: g.height,
          lines: [...base, move],
          alpha,
          beta,
          budgetMs,
        } satisfies Task);
      }
      if (slots.every((s) => !s.busy)) finish(true);
    };
    for (const s of slots) {
      s.worker.on('error', (err) => {
        if (!finished) {
          finished = true;
          for (const x of slots) void x.worker.terminate();
          reject(err);
        }
      });
      s.worker.on('message', (ans: Answer) => {
        const job = s.busy!;
        s.busy = null;
        nodes += ans.nodes;
        tests++;
        const { move, t } = job;
        const c = cap.get(move)!;
        let res = 'cancelled';
        if (ans.status === 'done') {
          // child bounds -> move bounds
          const [ml, mh] = c > 0 ? [c + ans.lower, c + ans.upper] : [0 - ans.upper, 0 - ans.lower];
          lo.set(move, Math.max(lo.get(move)!, ml));
          hi.set(move, Math.min(hi.get(move)!, mh));
          res = `v in [${lo.get(move)}, ${hi.get(move)}]`;
          if (ml >= t && ml > guess) guess = fix(ml);
        }
        const [a, b] = bounds();
        log(
          `${((Date.now() - t0) / 1000).toFixed(1)} s: move ${g.lineName(move)} >= ${t}? ${res} (${ans.nodes} nodes, ${(ans.ms / 1000).toFixed(1)} s); value in [${a}, ${b}]`,
        );
        if (Date.now() > deadline) {
          finish(true);
          return;
        }
        dispatch();
      });
    }
    dispatch();
  });
}

/** The board state after `lines` from the empty w x h board (helper for callers). */
export function positionOf(width: number, height: number, lines: number[]): BoardState {
  const st = new BoardState(geometryOf(width, height));
  for (const l of lines) st.play(l);
  return st;
}
