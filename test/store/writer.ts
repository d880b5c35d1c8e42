/**
 * A process that solves random 3x3 positions and keeps every result in a proof store (a third of
 * them as bounds with a best move found so far), for the store's crash and concurrency tests. Usage: node --import tsx writer.ts STORE SEED COUNT
 * Prints `flushed N` after each flush (COUNT 0 = run until killed).
 */
import { mulberry32 } from '../support/random';
import { randomPosition } from '../support/boards';
import { createSolver, searchEvaluate } from '../../server/src/engine/analysis/evaluatePosition';
import { openProofCache } from '../../server/src/store';

const [path, seedText, countText] = process.argv.slice(2);
const r = mulberry32(Number(seedText));
const count = Number(countText) || Infinity;
const proofs = openProofCache(path, { onWarning: (w) => process.stderr.write(`warning: ${w}\n`) });
if (!proofs) {
  process.stderr.write('store unusable\n');
  process.exit(3);
}
const solver = createSolver();
for (let i = 0; i < count; i++) {
  const s = randomPosition(3, 3, r, 9, false);
  if (s.isOver()) continue;
  const e = searchEvaluate(solver, s, {});
  if (i % 3 === 0) {
    // a third are kept as bounds with a best move found so far (as an attempt cut short keeps them)
    const open = s.openBoxCount(),
      undrawn = s.undrawnLines();
    const guess = undrawn[Math.floor(r() * undrawn.length)];
    proofs.put(
      s,
      {
        ...e,
        status: 'unknown',
        value: null,
        lower: Math.max(-open, e.value! - 2),
        upper: open,
        best: [],
        moveValues: undefined,
        bestSoFar: guess,
        bestSoFarNodes: i,
      },
      50,
    );
  } else proofs.put(s, e);
  if (i % 8 === 7) {
    proofs.flush();
    process.stdout.write(`flushed ${i + 1}\n`);
  }
}
proofs.close();
