// The solver against the brute force for as long as asked: the unit tests' cross-checks without
// their time limit, for a change to the solver to be run against before it lands.
// Usage: node --import tsx scripts/solver-sweep.ts [--minutes M] [--seed N] [--max-undrawn U]
// Positions on 17 board shapes (1x6 and 7x2 to 6x6) with at most U undrawn lines (default 21): 60%
// from cautious play, 40% random lines (half of them quiet). Three solvers (default table, 2^6
// entries, the CLI's 128 MiB), each reused from position to position, and every seventh position a
// two-thread solver. Checked against bruteForce: the value, every move's value and the optimal set
// (solve with moveValues), the value alone (valueOnly), three window searches at random windows
// (their bounds hold the value and prove something; a move they return is worth what they say), and
// the table's bounds for the position. Prints every mismatch; exit code 1 when there is one.
import { Solver, ThreadedSolver, bruteForce, type SolveResult } from '../server/src/engine/solver';
import type { BoardState } from '../server/src/engine/board/state';
import { mulberry32 } from '../test/support/random';
import { playedPosition, randomPosition } from '../test/support/boards';
import { sourceThreads } from '../test/support/threads';

const args = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const minutes = opt('--minutes', 10),
  seed = opt('--seed', 1),
  maxUndrawn = Math.min(opt('--max-undrawn', 21), 24);

const SHAPES = [
  [2, 2], [2, 3], [3, 2], [3, 3], [3, 4], [4, 3], [4, 4], [2, 5], [5, 2],
  [4, 5], [5, 4], [5, 5], [3, 6], [6, 3], [6, 6], [1, 6], [7, 2],
]; // prettier-ignore

const r = mulberry32(seed);
const solvers = [new Solver(), new Solver({ tableBits: 6 }), new Solver({ tableMb: 128 })];
const threaded = new ThreadedSolver({ tableBits: 16 }, sourceThreads(2));
let positions = 0,
  onTwoThreads = 0,
  windows = 0,
  mismatches = 0;

function mismatch(what: string, st: BoardState): void {
  mismatches++;
  console.log(`MISMATCH ${what}: ${st.geometry.width}x${st.geometry.height} ${st.key()}`);
}

const sameSet = (a: number[], b: number[]) =>
  JSON.stringify([...a].sort((x, y) => x - y)) === JSON.stringify([...b].sort((x, y) => x - y));

function check(st: BoardState, solver: Solver, own: Solver | null): void {
  const bf = bruteForce(st);
  const v = bf.value;
  const L = st.geometry.lineCount;
  const res: SolveResult = solver.solve(st, { moveValues: true });
  if (res.value !== v) mismatch(`value ${res.value}, brute force ${v}`, st);
  const wrong = Array.from({ length: L }, (_, l) => l).find((l) => (res.moveValues?.[l] ?? null) !== bf.moveValues[l]);
  if (wrong !== undefined)
    mismatch(`line ${wrong} worth ${res.moveValues?.[wrong]}, brute force ${bf.moveValues[wrong]}`, st);
  if (!sameSet(res.best, bf.best)) mismatch(`optimal lines ${res.best}, brute force ${bf.best}`, st);
  const alone = solver.solve(st, { valueOnly: true });
  if (alone.value !== v) mismatch(`value alone ${alone.value}, brute force ${v}`, st);
  const R = st.openBoxCount();
  for (let k = 0; k < 3; k++) {
    const alpha = -R - 1 + Math.floor(r() * (2 * R + 2)),
      beta = alpha + 1 + Math.floor(r() * 3);
    const w = solver.searchWindow(st, alpha, beta);
    windows++;
    if (w.status !== 'done') continue;
    if (w.lower > v || w.upper < v)
      mismatch(`window (${alpha}, ${beta}): [${w.lower}, ${w.upper}] leaves out ${v}`, st);
    if (w.lower <= alpha && w.upper >= beta) mismatch(`window (${alpha}, ${beta}) proved nothing`, st);
    if (w.move && !((bf.moveValues[w.move.line] ?? -Infinity) >= w.move.lower))
      mismatch(`window move ${w.move.line} said >= ${w.move.lower}, worth ${bf.moveValues[w.move.line]}`, st);
  }
  const entry = own?.tableEntry(st);
  if (entry && (entry.lower > v || entry.upper < v))
    mismatch(`table [${entry.lower}, ${entry.upper}] leaves out ${v}`, st);
  if (entry && entry.best >= 0 && bf.moveValues[entry.best] === null) mismatch(`table move ${entry.best} is drawn`, st);
}

const t0 = Date.now();
try {
  while (Date.now() - t0 < minutes * 60_000) {
    const [w, h] = SHAPES[Math.floor(r() * SHAPES.length)];
    const L = 2 * w * h + w + h;
    const most = Math.min(L, maxUndrawn);
    const undrawn = Math.max(1, most - Math.floor(r() * 12));
    const st = r() < 0.6 ? playedPosition(w, h, undrawn, r) : randomPosition(w, h, r, Math.max(0, L - most), r() < 0.5);
    if (L - st.drawnCount > maxUndrawn) continue;
    const onThreads = positions % 7 === 0;
    const own = solvers[positions % solvers.length];
    check(st, onThreads ? threaded : own, onThreads ? null : own);
    positions++;
    if (onThreads) onTwoThreads++;
    if (positions % 500 === 0)
      console.log(
        `${positions} positions (${onTwoThreads} on two threads), ${windows} windows, ${mismatches} mismatches, ${((Date.now() - t0) / 60_000).toFixed(1)} min`,
      );
  }
} finally {
  threaded.dispose();
}
console.log(
  `solver sweep, seed ${seed}, ${minutes} min: ${positions} positions (${onTwoThreads} on two threads), ${windows} windows, ${mismatches} mismatches`,
);
process.exit(mismatches > 0 ? 1 : 0);
