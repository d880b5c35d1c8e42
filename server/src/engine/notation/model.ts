/**
 * The meaning of a parsed entry: the board replayed move by move with legality checks and inferred
 * turns, or the abstract endgame with its line of play. Pure; diagnostics carry exact ranges.
 */
import { BoardGeometry, geometryOf, parseDot, parseLine } from '../board/geometry';
import { BoardState, CLAIMED_UNKNOWN, UNCLAIMED, type Player } from '../board/state';
import type {
  Component,
  Diagnostic,
  Entry,
  EntryKind,
  Glyph,
  LittlegolemTurn,
  MoveToken,
  PlayStep,
  Range,
  Severity,
  Variation,
} from './ast';
import { initialOf, sameNamesMessage } from './names';
import { playerNames } from './entries';
import { clip } from './text';
import { MAX_REPORTS_OF_A_KIND, MAX_MODEL_DIAGNOSTICS } from '../limits';

export interface MoveModel {
  /** Index into entry.moves.moves. */
  index: number;
  token: MoveToken;
  /** 1-based ply number when the move was legal and played; null when skipped. */
  ply: number | null;
  /** Line index in the board geometry; null when the text names no line of this board. */
  line: number | null;
  /** Canonical name (`a1-b1`), null when the text names no line of this board. */
  name: string | null;
  range: Range;
  glyph: Glyph | null;
  comment: string | null;
  /** Who drew it (inferred from the board); null when skipped. */
  player: Player | null;
  /** Boxes it completed (box indices). */
  completed: number[];
  legal: boolean;
  /** Why it was skipped: 'bad-move', 'off-board', 'not-adjacent', 'drawn-twice', 'game-over', 'no-board'. */
  problem: string | null;
  /** The alternatives written after this move, each replayed from the position before it. */
  variations: VariationModel[];
}

/** A line of play: the main line of a record, or a variation. */
export interface LineModel {
  /** Plies played before the line's first move (0 for the main line). */
  startPly: number;
  /** Every written move, legal or not, in order. */
  moves: MoveModel[];
  /** The legal moves: plies[k] is ply startPly + k + 1. */
  plies: MoveModel[];
  /** states[k] = the position after startPly + k plies; states[0] = where the line starts. Empty without a geometry. */
  states: BoardState[];
}

/** A variation, replayed: it starts from the position before the move it replaces. */
export interface VariationModel extends LineModel {
  variation: Variation;
}

export interface SetupLine {
  line: number;
  name: string;
  range: Range;
  from: 'lines' | 'diagram';
}

export interface PlayStepModel {
  index: number;
  step: PlayStep;
  range: Range;
  component: Component | null;
  /** The decision used: as written, or implied (1- and 2-chains and the last component: all). */
  decision: 'keep' | 'all' | null;
  decisionImplied: boolean;
  /** Who opened the component and who then decided (the controller). */
  opener: Player | null;
  controller: Player | null;
  /** Boxes each player got from this component. */
  gained: [number, number] | null;
  /** Score after the step; null once the line of play cannot be followed. */
  scoreAfter: [number, number] | null;
  legal: boolean;
}

export interface EndgameModel {
  /** Valid components, repeats expanded, in written order. */
  components: Component[];
  totalBoxes: number;
  /** The player to move at the start: the one who must open a component. */
  opener: Player;
  score: [number, number];
  steps: PlayStepModel[];
  /** Components not opened by the line of play, in written order. */
  remaining: Component[];
}

export interface EntryModel extends LineModel {
  entry: Entry;
  kind: EntryKind;
  title: string | null;
  /** Diagnostics of the model (not the parser's). */
  diagnostics: Diagnostic[];
  players: [string, string];
  /** Player to move at the entry's start. */
  toMove: Player;
  /** Score at the entry's start (boxes of the first, second player). */
  score: [number, number];
  /** Board entries: geometry, or null when the size is unknown. */
  geometry: BoardGeometry | null;
  /** Board entries: the start position (null without a geometry). */
  initial: BoardState | null;
  /** Lines drawn at the start (diagram first, then `lines`). */
  setup: SetupLine[];
  /** Completed boxes at the start whose owner counts in neither score. */
  unassigned: number;
  /** The main line: every written move (legal or not), the legal ones (plies[k - 1] is ply k) and
   * states[k], the position after k plies (states[0] = initial; empty without a geometry). */
  moves: MoveModel[];
  /** Endgame entries. */
  endgame: EndgameModel | null;
  /** The author's claimed value at the start, if given. */
  claimedValue: { value: number; range: Range } | null;
  /**
   * Left out by readDab's work bound (ReadOptions.maxWork): built without its moves, play and
   * components, so nothing of it is replayed or analysed.
   */
  leftOut?: boolean;
}

function diag(out: Diagnostic[], severity: Severity, range: Range, code: string, message: string): void {
  if (out.length > MAX_MODEL_DIAGNOSTICS) return;
  if (out.length === MAX_MODEL_DIAGNOSTICS) {
    out.push({
      severity: 'information',
      range,
      code: 'too-many-diagnostics',
      message: `more than ${MAX_MODEL_DIAGNOSTICS} problems in this entry; the rest are not shown`,
    });
    return;
  }
  out.push({ severity, range, code, message });
}

function span(a: Range, b: Range): Range {
  return { line: a.line, character: a.character, endLine: b.endLine, endCharacter: b.endCharacter };
}

function boxes(n: number): string {
  return `${n} box${n === 1 ? '' : 'es'}`;
}

/** Classify why a written line is not a line of this board. */
function lineProblem(g: BoardGeometry, text: string): 'off-board' | 'not-adjacent' | 'bad-move' {
  if (/^[hv][a-z][a-z]$/i.test(text)) return 'off-board';
  const m = /^([a-zA-Z][0-9]{1,2})-?([a-zA-Z][0-9]{1,2})$/.exec(text);
  if (!m) return 'bad-move';
  const a = parseDot(m[1]),
    b = parseDot(m[2]);
  if (!a || !b) return 'bad-move';
  if (!g.hasDot(a) || !g.hasDot(b)) return 'off-board';
  return 'not-adjacent';
}

/**
 * The message for a line that is not on the board: the geometry's, but for a littlegolem code off
 * the board, which letter is out of range (its dots may lie past column z, which has no name).
 */
function lineMessage(g: BoardGeometry, text: string, message: string): string {
  const lg = /^([hv])([a-z])([a-z])$/i.exec(text);
  if (!lg) return message;
  const h = lg[1].toLowerCase() === 'h';
  const row = lg[2].toLowerCase(),
    col = lg[3].toLowerCase();
  // h codes: rows a.. (height + 1 dot rows), columns a.. (width lines); v codes the other way round
  const rows = h ? g.height + 1 : g.height,
    cols = h ? g.width : g.width + 1;
  const letters = (n: number) => `a..${String.fromCharCode(96 + n)}`;
  const bad: string[] = [];
  if (row.charCodeAt(0) - 97 >= rows) bad.push(`its row letter '${lg[2]}' (rows ${letters(rows)})`);
  if (col.charCodeAt(0) - 97 >= cols) bad.push(`its column letter '${lg[3]}' (columns ${letters(cols)})`);
  const x = col.charCodeAt(0) - 97,
    y = row.charCodeAt(0) - 97;
  const dots = h ? [x, y, x + 1, y] : [x, y, x, y + 1];
  // the dots by name when both have one (column letters stop at z)
  const named =
    dots[2] < 26
      ? ` (${String.fromCharCode(97 + dots[0])}${dots[1] + 1}-${String.fromCharCode(97 + dots[2])}${dots[3] + 1})`
      : '';
  return `littlegolem move '${text}'${named} is off the ${g.width}x${g.height} board: ${bad.join(' and ')} ${bad.length > 1 ? 'are' : 'is'} out of range for '${h ? 'h' : 'v'}' codes here`;
}

/** Match a diagram cell's text against the players: a unique initial or a full name. */
function ownerOf(text: string, players: [string, string]): 0 | 1 | 'ambiguous' | null {
  const low = text.toLowerCase();
  const n0 = players[0].toLowerCase(),
    n1 = players[1].toLowerCase();
  if (low === n0 && low !== n1) return 0;
  if (low === n1 && low !== n0) return 1;
  if ([...text].length !== 1) return null;
  const i0 = initialOf(players[0]),
    i1 = initialOf(players[1]);
  if (text === i0 && text !== i1) return 0;
  if (text === i1 && text !== i0) return 1;
  const l0 = i0.toLowerCase(),
    l1 = i1.toLowerCase();
  if (low === l0 && low === l1) return 'ambiguous';
  if (low === l0) return 0;
  if (low === l1) return 1;
  return null;
}

/** Why the board gives the move after `plies` (the last of them just played) to `player`, for a turn mismatch. */
function turnReason(plies: readonly MoveModel[], player: string): string {
  if (plies.length < 2) return `${player} moves first here`;
  const previous = plies[plies.length - 2];
  return previous.completed.length > 0
    ? `the move before completed a box, which gives another move`
    : `the move before completed no box, so the turn passed`;
}

/**
 * Notes on SGF's PB[…] and PW[…] (playerNames): not used beside a players field, nor alone; the same
 * name for both is warned about, as in a players field.
 */
function sgfNameNotes(entry: Entry, diagnostics: Diagnostic[]): void {
  const [pb, pw] = entry.moves?.sgfPlayers ?? [null, null];
  const why = entry.players
    ? 'the players field names the players'
    : pb && pw
      ? null
      : "SGF's PB[…] and PW[…] name the players only together";
  for (const t of [pb, pw])
    if (t && why)
      diag(diagnostics, 'information', t.range, 'bad-turn', `the SGF name '${clip(t.text)}' is not used: ${why}`);
  if (!why && pb && pw && pb.text === pw.text)
    diag(diagnostics, 'warning', pw.range, 'bad-players', sameNamesMessage(pw.text));
}

/** Build the model of one parsed entry. Never throws. */
export function buildEntry(entry: Entry): EntryModel {
  const diagnostics: Diagnostic[] = [];
  const players = playerNames(entry);
  sgfNameNotes(entry, diagnostics);
  const toMove: Player = entry.tomove?.player ?? 0;
  const m: EntryModel = {
    entry,
    kind: entry.kind,
    title: entry.title,
    diagnostics,
    players,
    toMove,
    score: entry.score?.score ? [entry.score.score[0], entry.score.score[1]] : [0, 0],
    geometry: null,
    initial: null,
    setup: [],
    unassigned: 0,
    startPly: 0,
    moves: [],
    plies: [],
    states: [],
    endgame: null,
    claimedValue:
      entry.value && entry.value.value !== null && entry.value.valueRange
        ? { value: entry.value.value, range: entry.value.valueRange }
        : null,
  };
  if (entry.kind === 'endgame') buildEndgame(entry, m);
  else buildBoard(entry, m);
  return m;
}

function buildBoard(entry: Entry, m: EntryModel): void {
  const out = m.diagnostics;
  const size = entry.size;
  const dg = entry.diagram;
  let w: number | null = null,
    h: number | null = null;
  if (dg && dg.width !== null && dg.height !== null) {
    w = dg.width;
    h = dg.height;
    if (size && size.width !== null && size.height !== null && (size.width !== w || size.height !== h)) {
      diag(
        out,
        'error',
        size.valueRange ?? size.range,
        'size-mismatch',
        `size ${size.width}x${size.height} disagrees with the diagram, which is ${w}x${h} boxes; the diagram is used`,
      );
    }
  } else if (size && size.width !== null && size.height !== null) {
    w = size.width;
    h = size.height;
  } else if (!size && !dg) {
    diag(
      out,
      'error',
      entry.headerRange,
      'missing-size',
      `a ${entry.kind} needs a board: give its size (e.g. size 5x5, in boxes) or a diagram`,
    );
  }
  const moveTokens = entry.moves?.moves ?? [];
  if (w === null || h === null) {
    // No board: keep the moves for display, unchecked.
    for (const move of uncheckedMoves(moveTokens)) m.moves.push(move); // not push(...): a file may hold 100,000s
    return;
  }
  const g = geometryOf(w, h);
  m.geometry = g;
  const s = new BoardState(g, m.toMove, [0, 0]);
  /** Who drew each line: 0 = setup, k = ply k. */
  const drawnAt = new Int16Array(g.lineCount).fill(-1);
  if (dg && dg.width !== null) {
    for (const dl of dg.lines) {
      const line = dl.horizontal ? g.hLine(dl.x, dl.y) : g.vLine(dl.x, dl.y);
      s.drawSilently(line, CLAIMED_UNKNOWN);
      drawnAt[line] = 0;
      m.setup.push({ line, name: g.lineName(line), range: dl.range, from: 'diagram' });
    }
  }
  for (const t of entry.lines?.lines ?? []) {
    const p = parseLine(g, t.text);
    if (!p.ok) {
      const code = lineProblem(g, t.text);
      diag(out, 'error', t.range, code, lineMessage(g, t.text, p.message));
      continue;
    }
    if (s.isDrawn(p.line)) {
      diag(
        out,
        'warning',
        t.range,
        'drawn-twice',
        `${g.lineName(p.line)} is already drawn${dg ? ' (in the diagram or earlier in lines)' : ' (earlier in lines)'}`,
      );
      continue;
    }
    s.drawSilently(p.line, CLAIMED_UNKNOWN);
    drawnAt[p.line] = 0;
    m.setup.push({ line: p.line, name: g.lineName(p.line), range: t.range, from: 'lines' });
  }
  // Owners from the diagram.
  const owned: [number, number] = [0, 0];
  if (dg && dg.width !== null) {
    for (const c of dg.cells) {
      if (c.x >= w || c.y >= h || c.x < 0 || c.y < 0) continue;
      const b = g.box(c.x, c.y);
      const who = ownerOf(c.text, m.players);
      if (s.owner[b] === UNCLAIMED) {
        if (who === 0 || who === 1)
          diag(
            out,
            'hint',
            c.range,
            'label',
            `box ${g.boxName(b)} is not complete, so '${c.text}' is read as a label, not as ${m.players[who]}'s box`,
          );
        continue;
      }
      if (who === 'ambiguous') {
        diag(
          out,
          'warning',
          c.range,
          'owner-ambiguous',
          `'${c.text}' is the initial of both players; box ${g.boxName(b)} has no known owner (write a full name, or give the players different initials)`,
        );
        continue;
      }
      if (who !== null) {
        s.owner[b] = who;
        owned[who]++;
      }
    }
  }
  let completed = 0;
  for (let b = 0; b < g.boxCount; b++) if (s.owner[b] !== UNCLAIMED) completed++;
  const sf = entry.score;
  if (sf && sf.score) {
    const sc = sf.score;
    const r = sf.valueRanges.length === 2 ? span(sf.valueRanges[0], sf.valueRanges[1]) : sf.range;
    if (sc[0] + sc[1] > completed) {
      diag(
        out,
        'warning',
        r,
        'score-mismatch',
        `score ${sc[0]}-${sc[1]} counts ${boxes(sc[0] + sc[1])}, but only ${boxes(completed)} ${completed === 1 ? 'is' : 'are'} complete at the start`,
      );
    } else if (sc[0] < owned[0] || sc[1] < owned[1]) {
      diag(
        out,
        'warning',
        r,
        'score-mismatch',
        `score ${sc[0]}-${sc[1]} disagrees with the diagram, whose initials give ${m.players[0]} ${owned[0]} and ${m.players[1]} ${owned[1]}; the score is used`,
      );
    }
    m.score = [sc[0], sc[1]];
  } else {
    m.score = [owned[0], owned[1]];
  }
  m.unassigned = Math.max(0, completed - m.score[0] - m.score[1]);
  s.score = [m.score[0], m.score[1]];
  s.toMove = m.toMove;
  m.initial = s.clone();
  m.states.push(m.initial);
  // Replay the main line, then (recursively) the variations.
  replayLine(m, moveTokens, s, drawnAt, m, entry.moves?.turns ?? []);
}

/** Moves kept for display when there is no board to replay them on. */
function uncheckedMoves(tokens: MoveToken[]): MoveModel[] {
  return tokens.map((t, index) => ({
    ...unplayedMove(t, index, 'no-board'),
    variations: uncheckedVariations(t.variations),
  }));
}

/** The written move `t` before it is played on a board (no line, no player, nothing completed). */
function unplayedMove(t: MoveToken, index: number, problem: MoveModel['problem']): MoveModel {
  return {
    index,
    token: t,
    ply: null,
    line: null,
    name: null,
    range: t.range,
    glyph: t.glyph,
    comment: t.comment,
    player: null,
    completed: [],
    legal: false,
    problem,
    variations: [],
  };
}

function uncheckedVariations(vs: Variation[]): VariationModel[] {
  return vs.map((variation) => ({
    variation,
    startPly: 0,
    moves: uncheckedMoves(variation.moves),
    plies: [],
    states: [],
  }));
}

/**
 * Replay the written moves of a line from `s` (which it advances), filling `line`'s moves, plies and
 * states (states[0] must already be the start). Illegal moves are reported and skipped. Each move's
 * variations are replayed from the position before it, with their own copy of the board.
 * `drawnAt[l]` = who drew line l (0 = setup, k = ply k), for the messages; `turns` are the main
 * line's littlegolem brackets (variations have none).
 */
function replayLine(
  m: EntryModel,
  tokens: MoveToken[],
  s: BoardState,
  drawnAt: Int16Array,
  line: LineModel,
  turns: LittlegolemTurn[],
): void {
  const out = m.diagnostics;
  const g = s.geometry;
  const turnReported = new Set<number>();
  let afterEnd = 0;
  let afterEndFirst: Range | null = null,
    afterEndLast: Range | null = null;
  tokens.forEach((t, index) => {
    const mm = unplayedMove(t, index, null);
    line.moves.push(mm);
    // The variations start from the position before this move, whatever becomes of it.
    const before = t.variations.length
      ? { state: s.clone(), drawnAt: drawnAt.slice(), ply: line.startPly + line.plies.length }
      : null;
    playMove(mm);
    if (before)
      for (const variation of t.variations) {
        const v: VariationModel = { variation, startPly: before.ply, moves: [], plies: [], states: [before.state] };
        mm.variations.push(v);
        replayLine(m, variation.moves, before.state.clone(), before.drawnAt.slice(), v, []);
      }
  });
  if (afterEnd > MAX_REPORTS_OF_A_KIND && afterEndFirst && afterEndLast) {
    diag(
      out,
      'error',
      span(afterEndFirst, afterEndLast),
      'game-over',
      `${afterEnd - MAX_REPORTS_OF_A_KIND} more moves after the end of the game`,
    );
  }

  function playMove(mm: MoveModel): void {
    const t = mm.token;
    const index = mm.index;
    const p = parseLine(g, t.text);
    if (!p.ok) {
      mm.problem = lineProblem(g, t.text);
      diag(out, 'error', t.range, mm.problem, lineMessage(g, t.text, p.message));
      return;
    }
    mm.line = p.line;
    mm.name = g.lineName(p.line);
    if (s.isOver()) {
      mm.problem = 'game-over';
      afterEnd++;
      if (afterEnd <= MAX_REPORTS_OF_A_KIND)
        diag(
          out,
          'error',
          t.range,
          'game-over',
          `the game is over (every line is drawn): ${mm.name} comes after the end`,
        );
      else {
        afterEndFirst = afterEndFirst ?? t.range;
        afterEndLast = t.range;
      }
      return;
    }
    if (s.isDrawn(p.line)) {
      mm.problem = 'drawn-twice';
      const at = drawnAt[p.line];
      diag(
        out,
        'error',
        t.range,
        'drawn-twice',
        `${mm.name} is already drawn (${at <= 0 ? 'at the start' : `by move ${at}`}); this move is skipped`,
      );
      return;
    }
    const player = s.toMove;
    const r = s.play(p.line);
    if (!r.ok) {
      mm.problem = r.reason;
      return;
    }
    mm.player = player;
    mm.completed = r.completed;
    mm.legal = true;
    mm.ply = line.startPly + line.plies.length + 1;
    drawnAt[p.line] = mm.ply;
    line.plies.push(mm);
    line.states.push(s.clone());
    // Littlegolem brackets against the inferred turns.
    if (t.turn !== null && !turnReported.has(t.turn)) {
      const turn = turns[t.turn];
      if (turn && player !== turn.player) {
        turnReported.add(t.turn);
        const firstLegal = turn.moves.find((k) => k <= index && line.moves[k]?.legal) === index;
        if (firstLegal) {
          diag(
            out,
            'warning',
            turn.range,
            'turn-mismatch',
            `this turn is marked '${turn.letter}' (${m.players[turn.player]}), but by the board it is ${m.players[player]}'s move (${turnReason(line.plies, m.players[player])})`,
          );
        } else {
          diag(
            out,
            'warning',
            t.range,
            'turn-mismatch',
            `${m.players[turn.player]}'s turn ended before this move (the previous move completed no box), but the bracket goes on; the move is counted for ${m.players[player]}`,
          );
        }
      }
    }
  }
}

/** Every line of an entry: the main line first, then each variation (depth first, in written order). */
export function* allLines(m: EntryModel): Generator<LineModel> {
  yield m;
  function* under(line: LineModel): Generator<LineModel> {
    for (const mv of line.moves)
      for (const v of mv.variations) {
        yield v;
        yield* under(v);
      }
  }
  yield* under(m);
}

function buildEndgame(entry: Entry, m: EntryModel): void {
  const out = m.diagnostics;
  const cf = entry.components;
  const comps: Component[] = [];
  if (!cf) {
    diag(
      out,
      'error',
      entry.headerRange,
      'bad-component',
      'an endgame needs its components, e.g. components 3 + 4l + 8l',
    );
  } else {
    const bad = new Set<number>();
    cf.tokens.forEach((t, i) => {
      if (t.kind === 'chain' && t.size < 1) {
        bad.add(i);
        diag(out, 'error', t.range, 'bad-component', 'a chain has at least 1 box');
      } else if (t.kind === 'loop' && t.size < 4) {
        bad.add(i);
        diag(out, 'error', t.range, 'bad-component', 'a loop has at least 4 boxes');
      } else if (t.kind === 'loop' && t.size % 2 === 1)
        diag(
          out,
          'information',
          t.range,
          'odd-loop',
          `an odd loop (${t.size}l) exists only in strings-and-coins, not on a dots-and-boxes board; it is analysed as given`,
        );
    });
    for (const c of cf.components) if (!bad.has(c.token)) comps.push({ kind: c.kind, size: c.size });
  }
  const total = comps.reduce((a, c) => a + c.size, 0);
  const eg: EndgameModel = {
    components: comps,
    totalBoxes: total,
    opener: m.toMove,
    score: [m.score[0], m.score[1]],
    steps: [],
    remaining: comps.slice(),
  };
  m.endgame = eg;
  // what is left, counted by kind and size (a count per name, not a list: 100,000 steps stay linear)
  const nameOf = (x: Component) => `${x.size}${x.kind === 'loop' ? 'l' : ''}`;
  const left = new Map<string, number>();
  for (const x of comps) left.set(nameOf(x), (left.get(nameOf(x)) ?? 0) + 1);
  let leftCount = comps.length;
  const opened = new Map<string, number>();
  let opener: Player = m.toMove;
  // without components (none written, or none readable: already an error) play is not followed
  let score: [number, number] | null = comps.length ? [m.score[0], m.score[1]] : null;
  const steps = entry.play?.steps ?? [];
  steps.forEach((st, index) => {
    const sm: PlayStepModel = {
      index,
      step: st,
      range: st.range,
      component: st.component,
      decision: st.decision,
      decisionImplied: false,
      opener: null,
      controller: null,
      gained: null,
      scoreAfter: null,
      legal: false,
    };
    eg.steps.push(sm);
    if (!score || !st.component) return;
    const c = st.component;
    const name = nameOf(c);
    if (leftCount === 0) {
      diag(
        out,
        'error',
        st.range,
        'bad-play',
        `every component has been opened already; '${st.text}' is one step too many`,
      );
      score = null;
      return;
    }
    if (!left.get(name)) {
      const names = [...left].filter(([, n]) => n > 0).map(([k, n]) => (n > 1 ? `${k}^${n}` : k));
      diag(
        out,
        'error',
        st.nameRange,
        'bad-play',
        `no ${c.kind === 'loop' ? `${c.size}-loop` : `${c.size}-chain`} is left to open (left: ${names.join(' ')})`,
      );
      score = null;
      return;
    }
    let decision = st.decision;
    const last = leftCount === 1;
    if (decision === null) {
      if (last || (c.kind === 'chain' && c.size <= 2)) {
        decision = 'all';
        sm.decisionImplied = true;
      } else {
        diag(
          out,
          'error',
          st.range,
          'play-missing-decision',
          `say what the controller did with the ${name}: ${name}:keep (keeps control) or ${name}:all (takes everything)`,
        );
        score = null;
        return;
      }
    }
    if (decision === 'keep' && c.kind === 'chain' && c.size < 2) {
      diag(
        out,
        'error',
        st.decisionRange ?? st.range,
        'bad-play',
        'a 1-chain cannot be kept: there are no two boxes to hand back',
      );
      score = null;
      return;
    }
    sm.decision = decision;
    left.set(name, left.get(name)! - 1);
    opened.set(name, (opened.get(name) ?? 0) + 1);
    leftCount--;
    const controller = (1 - opener) as Player;
    const gained: [number, number] = [0, 0];
    if (decision === 'all') {
      gained[controller] += c.size;
    } else {
      const back = c.kind === 'loop' ? 4 : 2;
      gained[controller] += c.size - back;
      gained[opener] += back;
    }
    sm.opener = opener;
    sm.controller = controller;
    sm.gained = gained;
    score = [score[0] + gained[0], score[1] + gained[1]];
    sm.scoreAfter = [score[0], score[1]];
    sm.legal = true;
    if (decision === 'all') opener = controller;
  });
  // the components in their written order, less the first ones of each name that were opened
  eg.remaining = comps.filter((x) => {
    const k = nameOf(x);
    const n = opened.get(k) ?? 0;
    if (n === 0) return true;
    opened.set(k, n - 1);
    return false;
  });
}
