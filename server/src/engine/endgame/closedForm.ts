/**
 * Closed-form values of simple loony endgames (long chains >= 3 and even loops >= 4), after
 * Allcock, "Best play in Dots & Boxes endgames" (arXiv 1811.10747):
 *   (1.1) c(G) = size - 4 #chains - 8 #loops + tb(G)
 *   (1.2) tb(G) = 0 empty, 8 loops only, 6 loops + 3-chains only (at least one of each), else 4
 *   (2.1) v(G;C) = (|C|-2) + |v(G-C) - 2| (chain), (|C|-4) + |v(G-C) - 4| (loop)
 *   Theorem 4.1 (explicit) and Theorem 4.2 (procedural: core G0, maps Sigma, Theta, Phi).
 * Everything works on aggregate statistics, O(1) per value and O(#distinct types) per analysis.
 * v(G) is the controller's margin; the opener (player to move) scores -v(G).
 */
import { ComponentCounts, isSimpleLoony, typesOf } from './components';

/** The aggregate numbers both theorems need. */
export interface EndgameStats {
  size: number;
  chains: number;
  loops: number;
  /** theta: number of 3-chains */
  theta: number;
  /** f: number of 4-loops */
  f: number;
  /** s: number of 6-loops */
  s: number;
  /** chains of length >= 4: how many, how many boxes */
  bigChains: number;
  bigChainBoxes: number;
  /** loops of length >= 8: how many, how many boxes */
  bigLoops: number;
  bigLoopBoxes: number;
}

export function emptyStats(): EndgameStats {
  return {
    size: 0,
    chains: 0,
    loops: 0,
    theta: 0,
    f: 0,
    s: 0,
    bigChains: 0,
    bigChainBoxes: 0,
    bigLoops: 0,
    bigLoopBoxes: 0,
  };
}

/** Add k copies (k may be negative) of a long chain / even loop to stats, in place. */
export function addToStats(st: EndgameStats, kind: 'chain' | 'loop', size: number, k: number): void {
  st.size += size * k;
  if (kind === 'chain') {
    st.chains += k;
    if (size === 3) st.theta += k;
    else {
      st.bigChains += k;
      st.bigChainBoxes += size * k;
    }
  } else {
    st.loops += k;
    if (size === 4) st.f += k;
    else if (size === 6) st.s += k;
    else {
      st.bigLoops += k;
      st.bigLoopBoxes += size * k;
    }
  }
}

export class NotSimpleLoonyError extends RangeError {}

/** Stats of a multiset; throws NotSimpleLoonyError when a short chain or odd/short loop is present. */
export function statsOf(g: ComponentCounts): EndgameStats {
  if (!isSimpleLoony(g))
    throw new NotSimpleLoonyError('the closed form needs long chains (>= 3) and even loops (>= 4) only');
  const st = emptyStats();
  for (const [s, k] of g.chains) if (k > 0) addToStats(st, 'chain', s, k);
  for (const [s, k] of g.loops) if (k > 0) addToStats(st, 'loop', s, k);
  return st;
}

/** (1.2) from counts: n chains of which n3 are 3-chains, m loops. */
function tbOf(chains: number, theta: number, loops: number): number {
  if (chains === 0 && loops === 0) return 0;
  if (chains === 0) return 8;
  if (loops > 0 && chains === theta) return 6;
  return 4;
}

export function terminalBonus(st: EndgameStats): number {
  return tbOf(st.chains, st.theta, st.loops);
}

/** (1.1) c(G). */
export function controlledValue(st: EndgameStats): number {
  return st.size - 4 * st.chains - 8 * st.loops + terminalBonus(st);
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}

/** G = 4l + 3 + 3 exactly. */
function isFourThreeThree(st: EndgameStats): boolean {
  return st.loops === 1 && st.f === 1 && st.chains === 2 && st.theta === 2;
}

/** Theorem 4.1 (explicit values). */
export function valueExplicit(st: EndgameStats): number {
  if (st.chains === 0 && st.loops === 0) return 0;
  const c = controlledValue(st);
  const size = st.size,
    f = st.f,
    theta = st.theta;
  // (1)
  if (c >= 2) return c;
  // (2) c = 0 and G = 4l + (anything except 3 + 3)
  if (c === 0 && f > 0 && !isFourThreeThree(st)) return 0;
  // (3)
  if (theta === 0 || (theta === 1 && mod(size, 4) === 3)) {
    if (c + 4 * f >= 2) {
      const r = mod(c, 8);
      // 0 -> 0, +-1 -> 1, +-2 -> 2, +-3 -> 3, 4 -> 4
      return r <= 4 ? r : 8 - r;
    }
    if (size % 2 === 1) return f % 2 === 1 ? 1 : 3;
    if (mod(size, 4) === 2) return 2;
    return f % 2 === 1 ? 0 : 4;
  }
  // (4)
  return size % 2 === 1 ? 1 : 2;
}

/** Sigma(x) = |x - 4| + 2 applied n times, O(1). */
export function sigmaPow(x: number, n: number): number {
  while (n > 0) {
    if (x > 4) {
      const k = Math.min(n, Math.ceil((x - 4) / 2));
      x -= 2 * k;
      n -= k;
    } else if (x >= 2) {
      if (n % 2 === 1) x = 6 - x;
      n = 0;
    } else {
      x = Math.abs(x - 4) + 2;
      n--;
    }
  }
  return x;
}

/** Phi(x) = |x - 4| applied n times, O(1). */
export function phiPow(x: number, n: number): number {
  while (n > 0) {
    if (x > 4) {
      const k = Math.min(n, Math.ceil((x - 4) / 4));
      x -= 4 * k;
      n -= k;
    } else if (x >= 0) {
      if (n % 2 === 1) x = 4 - x;
      n = 0;
    } else {
      x = Math.abs(x - 4);
      n--;
    }
  }
  return x;
}

/** The core G0 of Theorem 4.2 (only meaningful when theta <= 1) and theta'. */
export function coreOf(st: EndgameStats): {
  size: number;
  chains: number;
  theta: number;
  loops: number;
  thetaPrime: number;
  c0: number;
} {
  let chains = st.bigChains,
    size = st.bigChainBoxes + st.bigLoopBoxes,
    theta = 0;
  let thetaPrime = 0;
  if (st.bigChains === 0) {
    if (st.theta === 1) {
      chains = 1;
      theta = 1;
      size += 3;
    }
  } else if (st.theta === 1) thetaPrime = 1;
  const loops = st.bigLoops;
  const c0 = size - 4 * chains - 8 * loops + tbOf(chains, theta, loops);
  return { size, chains, theta, loops, thetaPrime, c0 };
}

/** Theorem 4.2 (procedural values). */
export function valueProcedural(st: EndgameStats): number {
  if (st.chains === 0 && st.loops === 0) return 0;
  const c = controlledValue(st);
  if (c >= 2) return c;
  if (c === 0 && st.f > 0 && !isFourThreeThree(st)) return 0;
  if (st.theta === 0 || (st.theta === 1 && mod(st.size, 4) === 3)) {
    const core = coreOf(st);
    let x = sigmaPow(core.c0, st.s);
    if (core.thetaPrime === 1) x = x - 1;
    return phiPow(x, st.f);
  }
  return st.size % 2 === 1 ? 1 : 2;
}

/** Controller margin after the opener opens C and the controller replies optimally, (2.1). vRest = v(G - C). */
export function valueAfterOpening(kind: 'chain' | 'loop', size: number, vRest: number): number {
  if (kind === 'chain') {
    if (size <= 2) return size - vRest; // 1-chain; 2-chain opened in the middle: no choice
    return size - 2 + Math.abs(vRest - 2);
  }
  if (size < 4) return size - vRest; // 3-loop (strings-and-coins): no handout possible
  return size - 4 + Math.abs(vRest - 4);
}

export type ControllerDecision = 'keep' | 'all' | 'either';

/** Theorem 1.3 with equality: keep if v(G-C) > handout, all if less, either if equal; 'all' when there is no choice. */
export function controllerDecision(kind: 'chain' | 'loop', size: number, vRest: number): ControllerDecision {
  const handout = kind === 'chain' ? 2 : 4;
  if ((kind === 'chain' && size < 3) || (kind === 'loop' && size < 4)) return 'all';
  if (vRest > handout) return 'keep';
  if (vRest < handout) return 'all';
  return 'either';
}

export interface OpeningAnalysis {
  component: string;
  kind: 'chain' | 'loop';
  size: number;
  /** how many of this type are present */
  count: number;
  /** v(G - C), controller margin of the rest */
  valueRest: number;
  /** v(G;C): controller margin after C is opened and the controller replies optimally */
  valueAfter: number;
  optimal: boolean;
  decision: ControllerDecision;
}

export interface ClosedFormAnalysis {
  size: number;
  controlledValue: number;
  terminalBonus: number;
  /** v(G) by Theorem 4.1 */
  value: number;
  /** v(G) by Theorem 4.2 (must equal value) */
  valueProcedural: number;
  openings: OpeningAnalysis[];
  best: string[];
}

export type ValueFormula = 'explicit' | 'procedural';

export function closedFormValue(g: ComponentCounts | EndgameStats, formula: ValueFormula = 'explicit'): number {
  const st = 'chains' in g && typeof g.chains === 'number' ? (g as EndgameStats) : statsOf(g as ComponentCounts);
  return formula === 'explicit' ? valueExplicit(st) : valueProcedural(st);
}

/**
 * Every opening of a component type with its value (2.1) and the controller's decision, given
 * v(G - C) for each type; the optimal ones are those of least value for the controller.
 * Shared by the closed form and the recursion, which differ only in how they get v(G - C).
 */
export function rankOpenings(
  types: readonly { name: string; kind: 'chain' | 'loop'; size: number; count: number }[],
  valueOfRest: (t: { kind: 'chain' | 'loop'; size: number }, index: number) => number,
): { openings: OpeningAnalysis[]; best: string[] } {
  const openings: OpeningAnalysis[] = [];
  let min = Infinity;
  types.forEach((t, i) => {
    const vRest = valueOfRest(t, i);
    const valueAfter = valueAfterOpening(t.kind, t.size, vRest);
    if (valueAfter < min) min = valueAfter;
    openings.push({
      component: t.name,
      kind: t.kind,
      size: t.size,
      count: t.count,
      valueRest: vRest,
      valueAfter,
      optimal: false,
      decision: controllerDecision(t.kind, t.size, vRest),
    });
  });
  const best: string[] = [];
  for (const o of openings)
    if (o.valueAfter === min) {
      o.optimal = true;
      best.push(o.component);
    }
  return { openings, best };
}

/**
 * Full closed-form analysis: value, c, tb and every opening with its value (2.1) and the
 * controller's decision; O(#distinct types). Throws NotSimpleLoonyError if not applicable.
 */
export function analyzeClosedForm(g: ComponentCounts, formula: ValueFormula = 'explicit'): ClosedFormAnalysis {
  const st = statsOf(g);
  const val = formula === 'explicit' ? valueExplicit : valueProcedural;
  const value = val(st);
  const { openings, best } = rankOpenings(typesOf(g), (t) => {
    addToStats(st, t.kind, t.size, -1);
    const vRest = val(st);
    addToStats(st, t.kind, t.size, 1);
    return vRest;
  });
  return {
    size: st.size,
    controlledValue: controlledValue(st),
    terminalBonus: terminalBonus(st),
    value,
    valueProcedural: valueProcedural(st),
    openings,
    best,
  };
}
