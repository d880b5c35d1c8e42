/**
 * The ordering rules of the Dots-and-Boxes strategy guide "Dots" (Rules 2-4): the order in which the
 * chains of a loony endgame are opened, including positions where chains meet at junction boxes
 * (boxes with 0 or 1 side drawn). This is a HEURISTIC explanation of play order; it is compared
 * with the exact solver by `scripts/ordering-rules.ts`, and it is never shown as a proven value.
 *
 *  value of a chain = its number of boxes, minus 2 if it is a loop.
 *  Rule 2: the last chain is the largest linear chain; if there is none, the largest loop.
 *  Rule 3: (every box has >= 2 sides drawn) the other chains are opened in increasing value.
 *  Rule 4: (junctions present) repeatedly open a chain of minimal value — with one exception: if a
 *          loop (connected or not) is still present, there is exactly one disconnected linear chain,
 *          and no connected tree of only linear chains, do not open that disconnected chain — then
 *          complete it (drawing its lines may turn a junction into a chain box, merging chains or
 *          cutting off a loop). Ties: prefer a chain connected to a junction.
 *
 * Strings-and-coins terms: a junction is a coin of degree >= 3; a chain is a maximal run of degree-2
 * coins. Its two ends go to the ground or to junctions; a run whose ends are the same junction is a
 * (connected) loop; a run with no ends is an isolated loop. "Connected" = touches a junction.
 */

import type { BoardState } from '../board/state';
import { UNCLAIMED } from '../board/state';

export interface OrderChain {
  /** Boxes of the chain (board indices), in order along the chain. */
  boxes: number[];
  /** Undrawn lines of the chain: between its boxes and at its two ends. Any of them opens it. */
  lines: number[];
  loop: boolean;
  /** Touches a junction. */
  connected: boolean;
  /** Junction boxes at its ends (0, 1 or 2 entries; twice the same box for a connected loop). */
  junctions: number[];
  /** The ordering value: boxes, or boxes - 2 for a loop. */
  value: number;
  /** A loop on a degree-3 junction: opening it gives away the junction and its third chain too. */
  givesJunction?: boolean;
}

export type OrderingResult =
  { ok: true; chains: OrderChain[]; first: number; order: OrderChain[]; rule: string } | { ok: false; reason: string };

interface Structure {
  chains: OrderChain[];
  junctions: number[];
  bad?: string;
}

function degreeOf(state: BoardState, b: number): number {
  return 4 - state.sidesDrawn(b);
}

/** The chains and junctions of a position in which every move opens something. */
export function chainStructure(state: BoardState): Structure {
  const g = state.geometry;
  const junctions: number[] = [];
  const unclaimed = (b: number) => b >= 0 && state.owner[b] === UNCLAIMED;
  for (let b = 0; b < g.boxCount; b++) {
    if (!unclaimed(b)) continue;
    const d = degreeOf(state, b);
    if (d <= 1)
      return { chains: [], junctions: [], bad: `box ${g.boxName(b)} can be captured (not an opening position)` };
    if (d >= 3) junctions.push(b);
  }
  const isJ = new Set(junctions);
  // a line that touches no degree-2 box is a quiet move (junction-junction or junction-ground)
  for (let l = 0; l < g.lineCount; l++) {
    if (state.drawn[l]) continue;
    if (!g.boxesOfLine(l).some((b) => !isJ.has(b)))
      return { chains: [], junctions, bad: `line ${g.lineName(l)} opens no chain (a quiet move is left)` };
  }
  const seen = new Set<number>();
  const chains: OrderChain[] = [];
  const otherSide = (l: number, b: number) => {
    const bs = g.boxesOfLine(l);
    return bs.length === 1 ? -1 : bs[0] === b ? bs[1] : bs[0];
  };
  const inRun = (b: number) => unclaimed(b) && !isJ.has(b);
  for (let s = 0; s < g.boxCount; s++) {
    if (!inRun(s) || seen.has(s)) continue;
    // the run: degree-2 boxes joined by undrawn lines (a path or a cycle)
    const boxes: number[] = [];
    const lines = new Set<number>();
    const ends: number[] = []; // -1 = ground, else a junction box
    const stack = [s];
    seen.add(s);
    while (stack.length) {
      const b = stack.pop()!;
      boxes.push(b);
      for (const l of g.linesOfBox(b)) {
        if (state.drawn[l] || lines.has(l)) continue;
        lines.add(l);
        const o = otherSide(l, b);
        if (o >= 0 && inRun(o)) {
          if (!seen.has(o)) {
            seen.add(o);
            stack.push(o);
          }
        } else ends.push(o);
      }
    }
    const isLoop = ends.length === 0 || (ends.length === 2 && ends[0] >= 0 && ends[0] === ends[1]);
    const js = ends.filter((e) => e >= 0);
    chains.push({
      boxes: boxes.sort((x, y) => x - y),
      lines: [...lines].sort((x, y) => x - y),
      loop: isLoop,
      connected: js.length > 0,
      junctions: js,
      value: boxes.length - (isLoop ? 2 : 0),
    });
  }
  // A loop hanging on a junction of degree 3 cannot be opened on its own: once its boxes are taken
  // the junction box hangs on its third chain, which is then open too (the "Dots" guide, example 5: "would
  // create and open one large linear chain"). Such a loop is valued as everything it gives away,
  // as a linear chain.
  for (const c of chains) {
    if (!c.loop || c.junctions.length !== 2 || degreeOf(state, c.junctions[0]) !== 3) continue;
    const j = c.junctions[0];
    const third = chains.find((o) => o !== c && o.junctions.includes(j));
    c.loop = false;
    c.value = c.boxes.length + 1 + (third ? third.boxes.length : 0);
    c.givesJunction = true;
  }
  return { chains, junctions };
}

/** Components of the junction graph (junctions = points, chains = edges, ground ends = fresh points). */
function junctionParts(st: Structure): { hasCycle: boolean; chains: number[] }[] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    while (parent.get(x) !== x) x = parent.get(x)!;
    return x;
  };
  const add = (x: number) => {
    if (!parent.has(x)) parent.set(x, x);
  };
  let fresh = -10;
  const edges: [number, number][] = [];
  st.chains.forEach((c) => {
    if (!c.connected) return;
    const a = c.junctions[0];
    // (a loop on a degree-3 junction is still a cycle of the graph)
    const b = c.junctions.length > 1 ? c.junctions[1] : fresh--;
    add(a);
    add(b);
    edges.push([a, b]);
    parent.set(find(a), find(b));
  });
  const parts = new Map<number, { v: Set<number>; e: number; chains: number[] }>();
  let k = 0;
  st.chains.forEach((c, i) => {
    if (!c.connected) return;
    const [a, b] = edges[k++];
    const r = find(a);
    if (!parts.has(r)) parts.set(r, { v: new Set(), e: 0, chains: [] });
    const p = parts.get(r)!;
    p.v.add(a);
    p.v.add(b);
    p.e++;
    p.chains.push(i);
  });
  return [...parts.values()].map((p) => ({ hasCycle: p.e >= p.v.size, chains: p.chains }));
}

/** Which chain the rules open first in this structure, and which rule decided it. */
export function firstOpening(st: Structure): { index: number; rule: string } {
  const cs = st.chains;
  if (cs.length === 1) return { index: 0, rule: 'only chain' };
  let candidates = cs.map((_, i) => i);
  let rule: string;
  if (st.junctions.length === 0) {
    const linear = candidates.filter((i) => !cs[i].loop);
    const pool = linear.length > 0 ? linear : candidates;
    const last = pool.reduce((a, b) => (cs[b].boxes.length > cs[a].boxes.length ? b : a));
    candidates = candidates.filter((i) => i !== last);
    rule = `Rules 2+3 (last: ${cs[last].loop ? 'loop' : 'chain'} of ${cs[last].boxes.length})`;
  } else {
    rule = 'Rule 4';
    const parts = junctionParts(st);
    const anyLoop = cs.some((c) => c.loop) || parts.some((p) => p.hasCycle);
    const disconnectedLinear = candidates.filter((i) => !cs[i].connected && !cs[i].loop);
    const connectedTree = parts.some((p) => !p.hasCycle);
    if (anyLoop && disconnectedLinear.length === 1 && !connectedTree && candidates.length > 1) {
      candidates = candidates.filter((i) => i !== disconnectedLinear[0]);
      rule += ' (exception: keep the last disconnected chain)';
    }
  }
  let best = candidates[0];
  for (const i of candidates) {
    const a = cs[i],
      b = cs[best];
    if (a.value < b.value || (a.value === b.value && a.connected && !b.connected)) best = i;
  }
  return { index: best, rule };
}

/**
 * The rules' opening order for a position in which every move opens a chain or loop (no capturable
 * box, no quiet move). `order` simulates Rule 4's cycle: open the chosen chain, complete it (and any
 * box that completing it leaves capturable), recompute the chains, repeat.
 */
export function orderingRules(state: BoardState): OrderingResult {
  const st = chainStructure(state);
  if (st.bad) return { ok: false, reason: st.bad };
  if (st.chains.length === 0) return { ok: false, reason: 'no chains left' };
  const { index, rule } = firstOpening(st);
  const order: OrderChain[] = [];
  let cur = state.clone();
  let curSt = st,
    curIdx = index;
  for (let guard = 0; guard < 200; guard++) {
    const c = curSt.chains[curIdx];
    order.push(c);
    cur = cur.clone();
    for (const l of c.lines) cur.drawSilently(l);
    // finish boxes left capturable (a junction that became a 3-sided box belongs to this chain)
    for (let changed = true; changed;) {
      changed = false;
      for (let b = 0; b < cur.geometry.boxCount; b++) {
        if (cur.owner[b] !== UNCLAIMED || cur.sidesDrawn(b) !== 3) continue;
        for (const l of cur.geometry.linesOfBox(b)) if (!cur.drawn[l]) cur.drawSilently(l);
        changed = true;
      }
    }
    if (cur.isOver()) break;
    const next = chainStructure(cur);
    if (next.bad || next.chains.length === 0) break;
    curSt = next;
    curIdx = firstOpening(next).index;
  }
  return { ok: true, chains: st.chains, first: index, order, rule };
}
