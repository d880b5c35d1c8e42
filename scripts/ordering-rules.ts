// The chain-ordering Rules 2-4 of the strategy guide "Dots" (its Rules 2-4: the order in which chains are opened), against the exact solver.
// Usage: node --import tsx scripts/ordering-rules.ts [--seed N] [--count M] [--max-undrawn U] [--long-only] [--verbose]
// --long-only keeps only positions whose chains and loops all have >= 3 boxes (the rules' home ground).
// Generates positions where every move opens a chain or loop and some boxes are junctions (0 or 1
// side drawn), asks the rules which chain to open first, and checks with the exact solver
// (server/src/engine/solver) whether some line of that chain is an optimal move.
import { geometryOf, BoardGeometry } from '../server/src/engine/board/geometry';
import { BoardState, UNCLAIMED } from '../server/src/engine/board/state';
import { solve } from '../server/src/engine/solver';
import { chainStructure, orderingRules, OrderChain } from '../server/src/engine/nimstring/ordering';
import { lcg as rng } from '../test/support/random';

const args = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const seed = opt('--seed', 1),
  count = opt('--count', 500),
  maxUndrawn = opt('--max-undrawn', 24);
const verbose = args.includes('--verbose');
const longOnly = args.includes('--long-only');

export function diagram(s: BoardState, marks: Map<number, string> = new Map()): string {
  const g = s.geometry,
    out: string[] = [];
  for (let y = g.height; y >= 0; y--) {
    let row = '';
    for (let x = 0; x < g.width; x++) {
      const l = g.hLine(x, y);
      row += '+' + (s.drawn[l] ? '---' : (marks.get(l) ?? '   ').padEnd(3));
    }
    out.push(row + '+');
    if (y === 0) break;
    let box = '';
    for (let x = 0; x <= g.width; x++) {
      const l = g.vLine(x, y - 1);
      box += s.drawn[l] ? '|' : (marks.get(l) ?? ' ');
      if (x < g.width) {
        const b = g.box(x, y - 1);
        box += s.owner[b] !== UNCLAIMED ? ' # ' : s.sidesDrawn(b) <= 1 ? ' J ' : '   ';
      }
    }
    out.push(box);
  }
  return out.join('\n');
}

function describe(g: BoardGeometry, c: OrderChain): string {
  return `${c.loop ? 'loop' : c.givesJunction ? 'loop on a 3-junction (opens it all)' : 'chain'} of ${c.boxes.length} (${c.boxes.map((b) => g.boxName(b)).join(' ')})${c.connected ? ' at a junction' : ''}, value ${c.value}`;
}

/** A random position where every box has 2 sides drawn except a few junction boxes (0 or 1). */
function generate(r: () => number): BoardState | undefined {
  const sizes: [number, number][] = [
    [4, 3],
    [4, 4],
    [5, 3],
    [5, 4],
    [3, 3],
    [5, 5],
  ];
  const [w, h] = sizes[Math.floor(r() * sizes.length)];
  const g = geometryOf(w, h);
  const s = new BoardState(g);
  const nj = 1 + Math.floor(r() * 3);
  const limit = new Array<number>(g.boxCount).fill(2);
  for (let k = 0; k < nj; k++) limit[Math.floor(r() * g.boxCount)] = Math.floor(r() * 2);
  const order = g
    .allLines()
    .map((l) => [r(), l])
    .sort((a, b) => a[0] - b[0])
    .map((p) => p[1]);
  for (const l of order) if (g.boxesOfLine(l).every((b) => s.sidesDrawn(b) < limit[b])) s.drawSilently(l);
  if (g.lineCount - s.drawnCount > maxUndrawn) return undefined;
  const st = chainStructure(s);
  if (st.bad || st.junctions.length === 0 || st.chains.length < 2) return undefined;
  if (longOnly && st.chains.some((c) => c.boxes.length < 3)) return undefined;
  return s;
}

function main() {
  // The "Dots" guide, example 6: a 'P' graph plus a disconnected linear chain (5x3, B to move after 21 moves).
  const g6 = geometryOf(5, 3);
  const ex6 = new BoardState(g6, 1);
  const undrawn6 = new Set([
    g6.hLine(4, 3),
    g6.vLine(1, 2),
    g6.vLine(2, 2),
    g6.vLine(3, 2),
    g6.hLine(0, 2),
    g6.hLine(1, 2),
    g6.hLine(3, 2),
    g6.hLine(4, 2),
    g6.vLine(2, 1),
    g6.vLine(3, 1),
    g6.hLine(0, 1),
    g6.hLine(4, 1),
    g6.vLine(1, 0),
    g6.vLine(2, 0),
    g6.vLine(3, 0),
    g6.hLine(3, 0),
    g6.hLine(4, 0),
  ]);
  for (const l of g6.allLines()) if (!undrawn6.has(l)) ex6.drawSilently(l);
  const rules6 = orderingRules(ex6);
  const sol6 = solve(ex6, { moveValues: true });
  console.log('The "Dots" guide, example 6 (P graph + disconnected chain), player to move = B:');
  console.log(diagram(ex6));
  if (rules6.ok) {
    console.log(`rules (${rules6.rule}) open first: ${describe(g6, rules6.chains[rules6.first])}`);
    console.log(
      `rules' order: ${rules6.order.map((c) => `${c.loop ? c.boxes.length + 'l' : c.boxes.length}`).join(', ')}`,
    );
  }
  console.log(
    `exact value for B: ${sol6.value} (the guide says A:B = 10:5, i.e. -5); optimal lines: ${sol6.best.map((l) => g6.lineName(l)).join(' ')}`,
  );

  const r = rng(seed);
  let tried = 0,
    n = 0,
    agree = 0,
    totalLoss = 0,
    nLong = 0,
    agreeLong = 0;
  let failure: { s: BoardState; text: string } | undefined;
  const t0 = Date.now();
  while (n < count && tried < count * 5000) {
    tried++;
    const s = generate(r);
    if (!s) continue;
    const rules = orderingRules(s);
    if (!rules.ok) continue;
    const sol = solve(s, { moveValues: true, nodeBudget: 5_000_000 });
    if (sol.status !== 'exact' || !sol.moveValues) continue;
    n++;
    const chosen = rules.chains[rules.first];
    const bestInChain = Math.max(...chosen.lines.map((l) => sol.moveValues![l] ?? -Infinity));
    const loss = sol.value! - bestInChain;
    totalLoss += loss;
    // the rules' home ground: every chain and loop has >= 3 boxes
    if (rules.chains.every((c) => c.boxes.length >= 3)) {
      nLong++;
      if (loss === 0) agreeLong++;
    }
    if (loss === 0) agree++;
    else if (!failure || verbose) {
      const g = s.geometry;
      const marks = new Map<number, string>();
      for (const l of sol.best) marks.set(l, '*');
      for (const l of chosen.lines) if (!marks.has(l)) marks.set(l, 'r');
      const text = [
        diagram(s, marks),
        `(* = optimal lines, r = lines of the rules' chain, J = junction box)`,
        `chains: ${rules.chains.map((c) => describe(g, c)).join('; ')}`,
        `rules (${rules.rule}) open: ${describe(g, chosen)} -> best value there ${bestInChain}`,
        `exact value ${sol.value}, optimal: ${sol.best.map((l) => `${g.lineName(l)} (${sol.moveValues![l]})`).join(' ')}; the rules lose ${loss} box(es)`,
      ].join('\n');
      if (!failure) failure = { s, text };
      if (verbose) console.log(`\n${text}`);
    }
  }
  console.log(
    `\nseed ${seed}: ${n} positions with junctions (${tried} generated), ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  console.log(
    `rules' first opening is optimal in ${agree}/${n} = ${((100 * agree) / Math.max(1, n)).toFixed(1)}% (mean loss ${(totalLoss / Math.max(1, n)).toFixed(3)} boxes)`,
  );
  console.log(
    `positions whose chains all have >= 3 boxes: ${agreeLong}/${nLong} = ${((100 * agreeLong) / Math.max(1, nLong)).toFixed(1)}%`,
  );
  if (failure) console.log(`\nA position where the rules fail:\n${failure.text}`);
  else console.log('no position where the rules fail in this sample');
}

main();
