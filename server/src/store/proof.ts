/**
 * One stored proof: what is proven about a canonical position, and how it is checked before it is
 * believed. Every record read from the database or an import file goes through checkProof; a
 * record that fails is never used (the store drops it, an import rejects it).
 *
 * Key: canonicalPosition(g, drawn).key, i.e. `WxH:` + the canonical drawn-line bit set in hex
 * (8 digits per 32-bit word, most significant word first). Lines in `best`, `moves` and `estimate`
 * are in the canonical image's orientation; toCanonical / fromCanonical carry them to and from a
 * position.
 *
 * Row layout (table `proofs`; one JSON line of an export file is this row with the estimate's two
 * fields added when there is one):
 *   key   TEXT     the canonical key above
 *   lower INTEGER  proven lower bound on the value (margin of the remaining boxes, player to move)
 *   upper INTEGER  proven upper bound (lower = upper: the exact value)
 *   best  TEXT     every optimal line, ascending, comma-separated ('' when not known)
 *   moves TEXT     `line:value` for every move whose exact value is proven, comma-separated
 *   work  REAL     search nodes the proof took (eviction drops the cheapest first)
 *   tried INTEGER  the longest time budget (ms) of a search that ended without the exact value
 *                  (0: none); a later run with no larger budget takes the stored bounds as its answer.
 *                  For an exact value without its optimal moves: the longest budget of a search
 *                  for them that ended without them (a later run with no larger one does not retry)
 *   crc   INTEGER  CRC-32 of `key|lower|upper|best|moves|work|tried` (catches bytes changed on disk)
 *
 * The best move found so far — an estimate, never proven, shown as such — is kept beside the proof
 * while the optimal moves are not known (table `estimates`, since store version 4; an export line
 * carries it in two more fields):
 *   key          TEXT     the proof's key (an estimate without a proof row is not used)
 *   line         INTEGER  the move (an undrawn line, canonical orientation); export field `estimate`
 *   work         REAL     search nodes of the search that found it (the better informed of two
 *                         estimates is the one with more search behind it); export field `estimateWork`
 *   crc          INTEGER  CRC-32 of `key|line|work`
 * An export line's crc covers the estimate too: `key|lower|upper|best|moves|work|tried|estimate|estimateWork`
 * (a line without an estimate has the checksum of the table row, so version-1 export files still read).
 *
 * A proven bound on the estimated move — it is worth at least `lower` to the player to move, proven
 * by the window search it refuted (analysis/prove.ts) — is kept in table `estimate_bounds` and read
 * only beside an estimate of the same line (an export line carries it as `estimateLower`, which the
 * line's crc then covers too: `…|estimate|estimateWork|estimateLower`, export version 3):
 *   key    TEXT     the proof's key
 *   line   INTEGER  the move (canonical orientation), as in `estimates`
 *   lower  INTEGER  the proven bound
 *   crc    INTEGER  CRC-32 of `key|line|lower`
 *
 * The Nimstring views (table `nims`, keyed by the position as it is, not canonical; not exported)
 * are described in nimView.ts.
 */
import { geometryOf, type BoardGeometry } from '../engine/board/geometry';
import { MAX_SIDE } from '../engine/limits';
import { BoardState } from '../engine/board/state';
import { canonicalPosition, lineFromCanonical, lineToCanonical } from '../engine/solver/symmetry';
import type { Estimate } from '../engine/analysis/evaluation';
import { recordFault } from '../engine/phrasebook/store';

export interface Proof {
  /** Proven bounds on the value (equal when exact). */
  lower: number;
  upper: number;
  /** Every optimal line (canonical orientation), ascending; [] when not known. */
  best: number[];
  /** Proven exact values of moves (canonical orientation): [line, value], ascending by line. */
  moves: [number, number][];
  /** Search nodes behind the proof. */
  work: number;
  /** Longest time budget (ms) of an attempt that did not find the exact value (0: none recorded). */
  tried: number;
  /**
   * The best move found so far (canonical orientation; not proven) and the search nodes behind it;
   * only while `best` is empty (a proven optimal move outranks any estimate).
   */
  estimate?: Estimate;
}

export interface ProofRow {
  key: string;
  lower: number;
  upper: number;
  best: string;
  moves: string;
  work: number;
  tried: number;
  /** The estimate's line and work (an export line; absent when there is none). */
  estimate?: number;
  estimateWork?: number;
  /** The estimate's proven bound (an export line; absent when there is none). */
  estimateLower?: number;
  crc: number;
}

/** A row of the table `estimate_bounds`. */
export interface EstimateBoundRow {
  key: string;
  line: number;
  lower: number;
  crc: number;
}

/** A row of the table `estimates`. */
export interface EstimateRow {
  key: string;
  line: number;
  work: number;
  crc: number;
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** CRC-32 (IEEE) of a string's UTF-16 code units (keys and fields are ASCII). */
export function crc32(text: string): number {
  let c = -1;
  for (let i = 0; i < text.length; i++) c = CRC_TABLE[(c ^ text.charCodeAt(i)) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function rowCrc(r: Omit<ProofRow, 'crc'>): number {
  const est =
    r.estimate !== undefined
      ? `|${r.estimate}|${r.estimateWork}${r.estimateLower !== undefined ? `|${r.estimateLower}` : ''}`
      : '';
  return crc32(`${r.key}|${r.lower}|${r.upper}|${r.best}|${r.moves}|${r.work}|${r.tried}${est}`);
}

/** The record as one export line (its estimate included); `toRow(key, { ...p, estimate: undefined })` is the `proofs` row. */
export function toRow(key: string, p: Proof): ProofRow {
  const r: Omit<ProofRow, 'crc'> = {
    key,
    lower: p.lower,
    upper: p.upper,
    best: p.best.join(','),
    moves: p.moves.map(([l, v]) => `${l}:${v}`).join(','),
    work: Math.max(0, Math.round(p.work)),
    tried: Math.max(0, Math.round(p.tried)),
    ...(p.estimate ? { estimate: p.estimate.move, estimateWork: Math.max(0, Math.round(p.estimate.nodes)) } : {}),
    ...(p.estimate?.lower !== undefined ? { estimateLower: p.estimate.lower } : {}),
  };
  return { ...r, crc: rowCrc(r) };
}

function estimateCrc(key: string, line: number, work: number): number {
  return crc32(`${key}|${line}|${work}`);
}

function estimateBoundCrc(key: string, line: number, lower: number): number {
  return crc32(`${key}|${line}|${lower}`);
}

/** The `estimate_bounds` row of an estimate with a proven bound, or undefined when it has none. */
export function toEstimateBoundRow(key: string, e: Estimate): EstimateBoundRow | undefined {
  if (e.lower === undefined) return undefined;
  return { key, line: e.move, lower: e.lower, crc: estimateBoundCrc(key, e.move, e.lower) };
}

export function toEstimateRow(key: string, e: Estimate): EstimateRow {
  const work = Math.max(0, Math.round(e.nodes));
  return { key, line: e.move, work, crc: estimateCrc(key, e.move, work) };
}

/**
 * A `proofs` row joined with its `estimates` row (columns e_line, e_work, e_crc; null when there is
 * none) and its `estimate_bounds` row (b_line, b_lower, b_crc), checked: the proof with its
 * estimate, or why the proof is rejected. `dropped` says why a stored estimate is not used
 * (damaged, or not an estimate of this position); an estimate beside proven optimal moves is stale
 * (an older dab updated the proof), not damaged, and is left out, and so is a bound of another line
 * than the estimate's (an older dab replaced the estimate).
 */
export function fromStoredRow(raw: Record<string, unknown>): { key: string; proof: Proof; dropped?: string } | string {
  const r = fromRow({ ...raw, estimate: undefined, estimateWork: undefined, estimateLower: undefined });
  if (typeof r === 'string') return r;
  const { e_line: line, e_work: work, e_crc: crc } = raw;
  if (line === null || line === undefined) return r;
  if (r.proof.best.length > 0) return r;
  if (typeof line !== 'number' || typeof work !== 'number' || typeof crc !== 'number')
    return { ...r, dropped: recordFault.estimateWrongTypes };
  if (estimateCrc(r.key, line, work) !== crc) return { ...r, dropped: recordFault.estimateChecksum };
  const { b_line: bLine, b_lower: bLower, b_crc: bCrc } = raw;
  let lower: number | undefined;
  if (bLine !== null && bLine !== undefined && bLine === line) {
    if (typeof bLower !== 'number' || typeof bCrc !== 'number')
      return { ...r, dropped: recordFault.estimateWrongTypes };
    if (estimateBoundCrc(r.key, line, bLower) !== bCrc) return { ...r, dropped: recordFault.estimateChecksum };
    lower = bLower;
  }
  const proof: Proof = { ...r.proof, estimate: { move: line, nodes: work, ...(lower !== undefined ? { lower } : {}) } };
  const why = checkProof(r.key, proof);
  return why ? { ...r, dropped: why } : { key: r.key, proof };
}

const INT = /^-?\d{1,4}$/;

/** Decode and check a row (a `proofs` row, or an export line with its estimate); a string says why it is rejected. */
export function fromRow(raw: Record<string, unknown>): { key: string; proof: Proof } | string {
  const { key, lower, upper, best, moves, work, tried, estimate, estimateWork, estimateLower, crc } = raw;
  if (typeof key !== 'string' || typeof best !== 'string' || typeof moves !== 'string') return recordFault.wrongTypes;
  if (
    typeof lower !== 'number' ||
    typeof upper !== 'number' ||
    typeof work !== 'number' ||
    typeof tried !== 'number' ||
    typeof crc !== 'number'
  )
    return recordFault.wrongTypes;
  // the estimate: both fields or neither
  if (
    estimate === undefined
      ? estimateWork !== undefined
      : typeof estimate !== 'number' || typeof estimateWork !== 'number'
  )
    return recordFault.estimateWrongTypes;
  if (estimateLower !== undefined && (estimate === undefined || typeof estimateLower !== 'number'))
    return recordFault.estimateBoundWrongTypes;
  const est: { estimate?: number; estimateWork?: number; estimateLower?: number } =
    estimate === undefined
      ? {}
      : {
          estimate: estimate as number,
          estimateWork: estimateWork as number,
          ...(estimateLower !== undefined ? { estimateLower } : {}),
        };
  if (rowCrc({ key, lower, upper, best, moves, work, tried, ...est }) !== crc) return recordFault.checksum;
  const bestLines: number[] = [];
  for (const s of best === '' ? [] : best.split(',')) {
    if (!INT.test(s)) return recordFault.badBestMove(s);
    bestLines.push(Number(s));
  }
  const moveValues: [number, number][] = [];
  for (const s of moves === '' ? [] : moves.split(',')) {
    const [l, v, extra] = s.split(':');
    if (extra !== undefined || !INT.test(l ?? '') || !INT.test(v ?? '')) return recordFault.badMoveValue(s);
    moveValues.push([Number(l), Number(v)]);
  }
  const proof: Proof = {
    lower,
    upper,
    best: bestLines,
    moves: moveValues,
    work,
    tried,
    ...(est.estimate !== undefined
      ? {
          estimate: {
            move: est.estimate,
            nodes: est.estimateWork!,
            ...(est.estimateLower !== undefined ? { lower: est.estimateLower } : {}),
          },
        }
      : {}),
  };
  const why = checkProof(key, proof);
  return why ?? { key, proof };
}

/** The position a key stands for (canonical orientation), or a reason it is not a valid key. */
export function positionOfKey(key: string): BoardState | string {
  const m = /^(\d{1,2})x(\d{1,2}):([0-9a-f]+)$/.exec(key);
  if (!m) return recordFault.malformedKey;
  const w = Number(m[1]),
    h = Number(m[2]);
  if (w < 1 || h < 1 || w > MAX_SIDE || h > MAX_SIDE) return recordFault.boardSizeOutOfRange;
  const g = geometryOf(w, h);
  const nw = (g.lineCount + 31) >>> 5;
  const hex = m[3];
  if (hex.length !== 8 * nw) return recordFault.keyLengthWrong;
  const s = new BoardState(g);
  for (let w32 = 0; w32 < nw; w32++) {
    const word = parseInt(hex.slice(8 * (nw - 1 - w32), 8 * (nw - w32)), 16);
    for (let b = 0; b < 32; b++) {
      if (((word >>> b) & 1) === 0) continue;
      const l = 32 * w32 + b;
      if (l >= g.lineCount) return recordFault.keyLinesOffBoard;
      s.drawSilently(l);
    }
  }
  if (canonicalPosition(g, s.drawn).key !== key) return recordFault.keyNotCanonical;
  return s;
}

/**
 * Check everything a proof claims that can be checked without search: bounds inside the boxes left,
 * an exact value of the right parity, moves on undrawn lines whose values fit the bounds, optimal
 * moves whose known values equal the value. Returns why it fails, or undefined.
 */
export function checkProof(key: string, p: Proof): string | undefined {
  const s = positionOfKey(key);
  if (typeof s === 'string') return s;
  const r = s.openBoxCount();
  const int = (v: number) => Number.isInteger(v);
  if (!int(p.lower) || !int(p.upper) || p.lower > p.upper) return recordFault.boundsOutOfOrder;
  if (p.lower < -r || p.upper > r) return recordFault.boundsOutsideBoxes;
  if (!Number.isInteger(p.tried) || p.tried < 0) return recordFault.badTried;
  // Trivial bounds say something only with the attempt that failed to narrow them.
  if (r > 0 && p.lower === -r && p.upper === r && p.moves.length === 0 && p.tried === 0)
    return recordFault.saysNothing(r);
  const exact = p.lower === p.upper;
  if (exact && (p.lower - r) % 2 !== 0) return recordFault.wrongParity;
  if (!Number.isFinite(p.work) || p.work < 0) return recordFault.badWork;
  const undrawn = (l: number) => int(l) && l >= 0 && l < s.geometry.lineCount && !s.drawn[l];
  let last = -1;
  const values = new Map<number, number>();
  for (const [l, v] of p.moves) {
    if (!undrawn(l) || l <= last) return recordFault.moveNotUndrawn(l);
    last = l;
    if (!int(v) || v < -r || v > r || (v - r) % 2 !== 0) return recordFault.moveImpossible(l);
    // No move is worth more than the position; a proven move value is a lower bound on it.
    if (v > p.upper) return recordFault.moveAboveUpper(l);
    values.set(l, v);
  }
  const maxMove = Math.max(-Infinity, ...values.values());
  if (maxMove > p.lower) return recordFault.moveAboveLower;
  last = -1;
  for (const l of p.best) {
    if (!undrawn(l) || l <= last) return recordFault.bestNotUndrawn(l);
    last = l;
    if (!exact) return recordFault.bestWithoutValue;
    const v = values.get(l);
    if (v !== undefined && v !== p.lower) return recordFault.bestWrongValue(l);
  }
  if (exact && values.size === s.undrawnLines().length) {
    if (maxMove !== p.lower) return recordFault.movesDisagreeWithValue;
    const optimal = [...values].filter(([, v]) => v === p.lower).map(([l]) => l);
    if (optimal.join(',') !== p.best.join(',')) return recordFault.bestDisagreesWithMoves;
  }
  if (p.estimate !== undefined) {
    const { move, nodes } = p.estimate;
    if (!undrawn(move)) return recordFault.estimateNotUndrawn(move);
    if (!Number.isFinite(nodes) || nodes < 0) return recordFault.badEstimateWork;
    if (p.best.length > 0) return recordFault.estimateBesideBest;
    // a move's value has the parity of the boxes left, and no move is worth more than the position
    const b = p.estimate.lower;
    if (b !== undefined && (!int(b) || b < -r || b > p.upper || (b - r) % 2 !== 0))
      return recordFault.estimateBoundImpossible(b);
  }
  return undefined;
}

/** A line of `state` in the canonical orientation of its key, and back. */
export function toCanonical(g: BoardGeometry, symmetry: number, line: number): number {
  return lineToCanonical(g, symmetry, line);
}
export function fromCanonical(g: BoardGeometry, symmetry: number, line: number): number {
  return lineFromCanonical(g, symmetry, line);
}
