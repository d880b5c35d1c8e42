/**
 * Loony endgames read off a real board.
 *
 * Domain: every unclaimed box has 2 or 3 drawn sides (a box with 0 or 1 drawn sides means the
 * position needs a search). Think of boxes as nodes and undrawn lines as edges (a line on the
 * board's edge goes to the "ground"). Every component is then a path or a cycle:
 *   chain        path ground..ground, all boxes 2-sided       (n boxes, n+1 lines)
 *   loop         cycle                                        (n boxes, n lines)
 *   opened-chain path capturable box..ground (one end box has 3 sides; n boxes, n lines)
 *   opened-loop  path capturable..capturable (both ends 3-sided: an opened loop, a domino left by
 *                a handout, ...; n >= 2 boxes, n-1 lines)
 * Value for the player to move (spec convention), with G' the unopened chains and loops, v the
 * abstract value (controller margin), T the boxes in opened pieces:
 *   no opened piece:  value = -v(G')
 *   otherwise the mover is the controller and either takes everything and opens next
 *   (T - v(G')) or keeps control with the cheapest hard-hearted handout h (2 when some opened-chain
 *   has >= 2 boxes, else 4 when some opened-loop has >= 4 boxes; none otherwise): T - 2h + v(G').
 *   value = the larger. (Declining a box whose capture changes nothing is never better; the tests
 *   check all of this against a plain minimax over every line on real boards.)
 * Per-line values come from playing each line and evaluating the result the same way; the set
 * is closed under moves, so every undrawn line gets an exact value.
 */
import { BoardGeometry } from '../board/geometry';
import { BoardState, Player } from '../board/state';
import { ComponentCounts, emptyCounts } from './components';
import { EndgameStats, emptyStats, addToStats, valueExplicit } from './closedForm';
import { DEFAULT_MAX_STATES, recursionValue } from './recursion';
import { EndgameAnalysis, analyzeEndgame } from './analyzeEndgame';
import { ControllerDecision } from './closedForm';
import { MAX_BOXES, SHORT_CHAIN_CACHE_ENTRIES } from '../limits';

export type BoardComponentKind = 'chain' | 'loop' | 'opened-chain' | 'opened-loop';

export interface BoardComponent {
  kind: BoardComponentKind;
  /** boxes */
  size: number;
  /** `3`, `4l` for unopened components; `opened 3`, `opened 4l` for pieces */
  name: string;
  /** boxes in path order; for an opened-chain the capturable box comes first */
  boxes: number[];
  /** undrawn lines in path order */
  lines: number[];
}

export type LineRole =
  | 'open' // opens an unopened chain (>= 3) or loop; every line of it is equivalent
  | 'open-middle' // the line between the two boxes of a 2-chain (controller has no choice)
  | 'open-end' // an end line of a 2-chain (controller may decline with a handout)
  | 'open-single' // a line of a 1-chain
  | 'capture' // completes at least one box
  | 'handout' // the hard-hearted handout: declines the last 2 (chain) / 4 (loop) boxes
  | 'other'; // any other move inside an opened piece

export interface LineAnalysis {
  line: number;
  name: string;
  /** index into `components` */
  component: number;
  role: LineRole;
  /** boxes this line completes */
  completes: number;
  /** value for the player to move if they draw this line (boxes it completes included) */
  value: number;
  optimal: boolean;
  /** value - best (0 for optimal lines) */
  loss: number;
}

export interface ControllerOptions {
  /** boxes in opened pieces */
  boxes: number;
  /** value of taking everything and opening next */
  all: number;
  /** value of keeping control (undefined when no handout is possible) */
  keep?: number;
  handout?: 2 | 4;
  decision: ControllerDecision;
}

export type BoardEndgameAnalysis =
  | {
      ok: true;
      /** 'loony': nothing opened, the player to move must open; 'opened': capturable pieces exist */
      phase: 'loony' | 'opened';
      toMove: Player;
      /** value for the player to move, remaining boxes */
      value: number;
      remainingBoxes: number;
      components: BoardComponent[];
      /** abstract analysis of the unopened components (v(G') etc.) */
      endgame: EndgameAnalysis;
      /** the controller's two options when pieces are open */
      controller?: ControllerOptions;
      lines: LineAnalysis[];
      /** every optimal line */
      best: number[];
      bestNames: string[];
    }
  | { ok: false; needsSearch: true; reason: string };

export interface LoonyOptions {
  /** state budget for the recursion when 1- and 2-chains are present */
  maxStates?: number;
}

// ----------------------------------------------------------------------------------------------
// Scratch state (module level: the solver calls the fast path at its leaves)

let stamp = new Int32Array(MAX_BOXES + 1);
let generation = 0;
const chainHist = new Int32Array(MAX_BOXES + 3);
const loopHist = new Int32Array(MAX_BOXES + 3);
const touchedChains: number[] = [];
const touchedLoops: number[] = [];
const scanStats: EndgameStats = emptyStats();

interface ScanOut {
  reason: string;
  short: number; // 1- and 2-chains among the unopened components
  pieces: number;
  pieceBoxes: number;
  hasA2: boolean; // an opened-chain with >= 2 boxes
  hasB4: boolean; // an opened-loop with >= 4 boxes
}
const scanOut: ScanOut = { reason: '', short: 0, pieces: 0, pieceBoxes: 0, hasA2: false, hasB4: false };

function resetScan(): void {
  for (const s of touchedChains) chainHist[s] = 0;
  for (const s of touchedLoops) loopHist[s] = 0;
  touchedChains.length = 0;
  touchedLoops.length = 0;
  const st = scanStats;
  st.size =
    st.chains =
    st.loops =
    st.theta =
    st.f =
    st.s =
    st.bigChains =
    st.bigChainBoxes =
    st.bigLoops =
    st.bigLoopBoxes =
      0;
  scanOut.reason = '';
  scanOut.short = 0;
  scanOut.pieces = 0;
  scanOut.pieceBoxes = 0;
  scanOut.hasA2 = false;
  scanOut.hasB4 = false;
  generation++;
  if (generation > 0x3fffffff) {
    stamp = new Int32Array(MAX_BOXES + 1);
    generation = 1;
  }
}

type DrawnArray = ArrayLike<number>;

function sidesOf(g: BoardGeometry, drawn: DrawnArray, b: number): number {
  const bl = g.boxLines;
  return drawn[bl[4 * b]] + drawn[bl[4 * b + 1]] + drawn[bl[4 * b + 2]] + drawn[bl[4 * b + 3]];
}

function other(g: BoardGeometry, line: number, b: number): number {
  const a = g.lineBoxes[2 * line];
  return a === b ? g.lineBoxes[2 * line + 1] : a;
}

function addUnopened(kind: 'chain' | 'loop', size: number): void {
  if (kind === 'chain') {
    if (chainHist[size] === 0) touchedChains.push(size);
    chainHist[size]++;
    if (size < 3) scanOut.short++;
    else addToStats(scanStats, 'chain', size, 1);
  } else {
    if (loopHist[size] === 0) touchedLoops.push(size);
    loopHist[size]++;
    addToStats(scanStats, 'loop', size, 1); // loops on a board are even and >= 4
  }
}

/** The first undrawn side of box b other than line `except`, or -1. */
function undrawnSide(g: BoardGeometry, drawn: DrawnArray, b: number, except: number): number {
  for (let j = 4 * b; j < 4 * b + 4; j++) {
    const l = g.boxLines[j];
    if (!drawn[l] && l !== except) return l;
  }
  return -1;
}

/**
 * Trace every component. Returns false (with scanOut.reason) when the position is outside the
 * domain. When `detail` is given, the components are pushed there.
 */
function scan(g: BoardGeometry, drawn: DrawnArray, detail: BoardComponent[] | null): boolean {
  resetScan();
  const gen = generation;
  const nb = g.boxCount,
    bl = g.boxLines;
  // Pass 0: domain check.
  for (let b = 0; b < nb; b++) {
    const s = sidesOf(g, drawn, b);
    if (s < 2) {
      scanOut.reason = `box ${g.boxName(b)} has ${s === 0 ? 'no drawn side' : 'only 1 drawn side'}: not a loony endgame of isolated chains and loops (needs search)`;
      return false;
    }
  }
  // Pass 1: paths, started from their ends (a capturable box or a box with an undrawn edge line).
  for (let b = 0; b < nb; b++) {
    if (stamp[b] === gen) continue;
    const s = sidesOf(g, drawn, b);
    if (s === 4) continue;
    let groundLine = -1;
    if (s === 2) {
      for (let k = 0; k < 4; k++) {
        const l = bl[4 * b + k];
        if (!drawn[l] && other(g, l, b) === -1) {
          groundLine = l;
          break;
        }
      }
      if (groundLine === -1) continue; // interior of a path or a loop
    }
    const startCap = s === 3;
    let from = startCap ? -1 : groundLine;
    let cur = b,
      k = 0,
      endCap = false;
    const boxes: number[] | null = detail ? [] : null;
    const lines: number[] | null = detail ? [] : null;
    if (lines && !startCap) lines.push(groundLine);
    for (;;) {
      stamp[cur] = gen;
      k++;
      if (boxes) boxes.push(cur);
      const next = undrawnSide(g, drawn, cur, from);
      if (next === -1) {
        endCap = true;
        break;
      }
      if (lines) lines.push(next);
      const o = other(g, next, cur);
      if (o === -1) break;
      from = next;
      cur = o;
    }
    const caps = (startCap ? 1 : 0) + (endCap ? 1 : 0);
    if (caps === 0) {
      addUnopened('chain', k);
      if (detail) detail.push({ kind: 'chain', size: k, name: `${k}`, boxes: boxes!, lines: lines! });
    } else {
      scanOut.pieces++;
      scanOut.pieceBoxes += k;
      if (caps === 1) {
        if (k >= 2) scanOut.hasA2 = true;
        if (detail) {
          // capturable box first
          if (!startCap) {
            boxes!.reverse();
            lines!.reverse();
          }
          detail.push({ kind: 'opened-chain', size: k, name: `opened ${k}`, boxes: boxes!, lines: lines! });
        }
      } else {
        if (k >= 4) scanOut.hasB4 = true;
        if (detail) detail.push({ kind: 'opened-loop', size: k, name: `opened ${k}l`, boxes: boxes!, lines: lines! });
      }
    }
  }
  // Pass 2: what is left are cycles.
  for (let b = 0; b < nb; b++) {
    if (stamp[b] === gen) continue;
    if (sidesOf(g, drawn, b) === 4) continue;
    let from = undrawnSide(g, drawn, b, -1);
    let cur = b,
      k = 0;
    const boxes: number[] | null = detail ? [] : null;
    const lines: number[] | null = detail ? [] : null;
    for (;;) {
      stamp[cur] = gen;
      k++;
      if (boxes) boxes.push(cur);
      const next = undrawnSide(g, drawn, cur, from);
      if (lines) lines.push(next);
      const o = other(g, next, cur);
      if (o === b) break;
      from = next;
      cur = o;
    }
    addUnopened('loop', k);
    if (detail) detail.push({ kind: 'loop', size: k, name: `${k}l`, boxes: boxes!, lines: lines! });
  }
  return true;
}

// Values of unopened parts with 1- and 2-chains, by the recursion; small cache keyed by counts.
const shortCache = new Map<string, number>();

function histCounts(): ComponentCounts {
  const c = emptyCounts();
  for (const s of touchedChains) if (chainHist[s] > 0) c.chains.set(s, chainHist[s]);
  for (const s of touchedLoops) if (loopHist[s] > 0) c.loops.set(s, loopHist[s]);
  return c;
}

function histKey(): string {
  let key = '';
  const cs = touchedChains.slice().sort((a, b) => a - b);
  for (const s of cs) key += `${s}x${chainHist[s]},`;
  key += '|';
  const ls = touchedLoops.slice().sort((a, b) => a - b);
  for (const s of ls) key += `${s}x${loopHist[s]},`;
  return key;
}

/** v (controller margin) of the unopened components just scanned. */
function unopenedValue(maxStates: number): number | undefined {
  if (scanOut.short === 0) return valueExplicit(scanStats);
  const key = histKey();
  const hit = shortCache.get(key);
  if (hit !== undefined) return hit;
  const v = recursionValue(histCounts(), { maxStates });
  if (v !== undefined) {
    if (shortCache.size >= SHORT_CHAIN_CACHE_ENTRIES) shortCache.clear();
    shortCache.set(key, v);
  }
  return v;
}

/** Value for the mover of the scanned position, given v of the unopened part. */
function combine(vRest: number): number {
  if (scanOut.pieces === 0) return -vRest + 0;
  const T = scanOut.pieceBoxes;
  const all = T - vRest;
  const h = scanOut.hasA2 ? 2 : scanOut.hasB4 ? 4 : 0;
  if (h === 0) return all;
  const keep = T - 2 * h + vRest;
  return keep > all ? keep : all;
}

/**
 * Exact value for the player to move of a position given by its drawn lines (1 = drawn), or
 * undefined when it is not a loony endgame of isolated chains/loops (plus opened pieces) or the
 * recursion budget is exceeded. Cheap and allocation-light: meant as a solver leaf.
 */
export function loonyValueOfDrawn(g: BoardGeometry, drawn: DrawnArray, options: LoonyOptions = {}): number | undefined {
  if (!scan(g, drawn, null)) return undefined;
  const v = unopenedValue(options.maxStates ?? DEFAULT_MAX_STATES);
  return v === undefined ? undefined : combine(v);
}

/** Exact value of a BoardState for the player to move (remaining boxes), or undefined (needs search). */
export function loonyEndgameValue(state: BoardState, options: LoonyOptions = {}): number | undefined {
  return loonyValueOfDrawn(state.geometry, state.drawn, options);
}

/** Why a position is not handled (undefined when it is). */
export function loonyRejectionReason(g: BoardGeometry, drawn: DrawnArray): string | undefined {
  return scan(g, drawn, null) ? undefined : scanOut.reason;
}

/**
 * Components of a board position (undefined + reason when outside the domain).
 */
export function extractComponents(
  state: BoardState,
): { ok: true; components: BoardComponent[] } | { ok: false; reason: string } {
  const detail: BoardComponent[] = [];
  if (!scan(state.geometry, state.drawn, detail)) return { ok: false, reason: scanOut.reason };
  return { ok: true, components: detail };
}

/**
 * Full analysis for display: components, value for the player to move, the value of every
 * undrawn line and the set of optimal lines.
 */
export function analyzeBoardEndgame(state: BoardState, options: LoonyOptions = {}): BoardEndgameAnalysis {
  const g = state.geometry;
  const maxStates = options.maxStates ?? DEFAULT_MAX_STATES;
  const components: BoardComponent[] = [];
  if (!scan(g, state.drawn, components)) return { ok: false, needsSearch: true, reason: scanOut.reason };
  const vRest = unopenedValue(maxStates);
  if (vRest === undefined) {
    return {
      ok: false,
      needsSearch: true,
      reason: `too many 1- and 2-chains for the exact recursion (budget ${maxStates} states)`,
    };
  }
  const value = combine(vRest);
  const pieces = scanOut.pieces,
    T = scanOut.pieceBoxes,
    hasA2 = scanOut.hasA2,
    hasB4 = scanOut.hasB4;
  const unopened = emptyCounts();
  for (const c of components) {
    if (c.kind === 'chain') unopened.chains.set(c.size, (unopened.chains.get(c.size) ?? 0) + 1);
    else if (c.kind === 'loop') unopened.loops.set(c.size, (unopened.loops.get(c.size) ?? 0) + 1);
  }
  const endgame = analyzeEndgame(unopened, { maxStates });
  let controller: ControllerOptions | undefined;
  if (pieces > 0) {
    const all = T - vRest;
    const h = hasA2 ? 2 : hasB4 ? 4 : 0;
    if (h) {
      const keep = T - 2 * h + vRest;
      controller = {
        boxes: T,
        all,
        keep,
        handout: h as 2 | 4,
        decision: keep > all ? 'keep' : keep < all ? 'all' : 'either',
      };
    } else controller = { boxes: T, all, decision: 'all' };
  }
  // Per-line values: play each line on a scratch copy and evaluate the result.
  const lineComponent = new Int32Array(g.lineCount).fill(-1);
  components.forEach((c, i) => {
    for (const l of c.lines) lineComponent[l] = i;
  });
  const scratch = new Uint8Array(state.drawn);
  const lines: LineAnalysis[] = [];
  for (let l = 0; l < g.lineCount; l++) {
    if (state.drawn[l]) continue;
    scratch[l] = 1;
    let completes = 0;
    for (let k = 0; k < 2; k++) {
      const b = g.lineBoxes[2 * l + k];
      if (b >= 0 && sidesOf(g, scratch, b) === 4) completes++;
    }
    const next = loonyValueOfDrawn(g, scratch, { maxStates });
    scratch[l] = 0;
    if (next === undefined) {
      return {
        ok: false,
        needsSearch: true,
        reason: `the position after ${g.lineName(l)} is beyond the recursion budget`,
      };
    }
    const lv = completes > 0 ? completes + next : -next + 0;
    const ci = lineComponent[l];
    const comp = components[ci];
    lines.push({
      line: l,
      name: g.lineName(l),
      component: ci,
      role: roleOf(comp, l, completes),
      completes,
      value: lv,
      optimal: false,
      loss: 0,
    });
  }
  let best = -Infinity;
  for (const x of lines) if (x.value > best) best = x.value;
  if (lines.length && best !== value) {
    // Cannot happen (checked by the tests against brute force); never show a wrong value.
    return {
      ok: false,
      needsSearch: true,
      reason: `internal inconsistency: position value ${value} but best line value ${best}`,
    };
  }
  const bestLines: number[] = [];
  for (const x of lines) {
    x.loss = best - x.value;
    x.optimal = x.loss === 0;
    if (x.optimal) bestLines.push(x.line);
  }
  let remainingBoxes = 0;
  for (const c of components) remainingBoxes += c.size;
  return {
    ok: true,
    phase: pieces > 0 ? 'opened' : 'loony',
    toMove: state.toMove,
    value,
    remainingBoxes,
    components,
    endgame,
    controller,
    lines,
    best: bestLines,
    bestNames: bestLines.map((l) => g.lineName(l)),
  };
}

function roleOf(c: BoardComponent, line: number, completes: number): LineRole {
  if (completes > 0) return 'capture';
  const idx = c.lines.indexOf(line);
  switch (c.kind) {
    case 'chain':
      if (c.size === 1) return 'open-single';
      if (c.size === 2) return idx === 1 ? 'open-middle' : 'open-end';
      return 'open';
    case 'loop':
      return 'open';
    case 'opened-chain':
      // lines: [capturable box's line, ..., ground line]; handout = the ground line of a 2-box piece
      return c.size === 2 && idx === 1 ? 'handout' : 'other';
    case 'opened-loop':
      return c.size === 4 && idx === 1 ? 'handout' : 'other';
  }
}
