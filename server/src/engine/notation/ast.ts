/**
 * The syntax tree of a `.dab` file. Pure data, no editor types.
 * Positions are 0-based and counted in UTF-16 code units, exactly as in the Language Server Protocol.
 * See docs/notation.md for the grammar.
 */

/** A half-open text range: from (line, character) up to, not including, (endLine, endCharacter). */
export interface Range {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/**
 * Diagnostic codes (kebab-case). Parser: 'syntax', 'missing-header', 'bad-header', 'unknown-field',
 * 'duplicate-field', 'field-not-allowed', 'unterminated-string', 'unterminated-comment', 'bad-size',
 * 'bad-players', 'bad-tomove', 'bad-score', 'bad-value', 'bad-move', 'bad-glyph', 'bad-turn',
 * 'bad-diagram', 'bad-component', 'bad-play', 'bad-tag', 'bad-variation', 'too-many-diagnostics'.
 * Model: 'missing-size', 'size-mismatch', 'off-board', 'not-adjacent', 'drawn-twice', 'game-over',
 * 'turn-mismatch', 'score-mismatch', 'owner-ambiguous', 'odd-loop', 'bad-component', 'bad-play',
 * 'play-missing-decision'.
 */
export interface Diagnostic {
  severity: Severity;
  range: Range;
  code: string;
  message: string;
}

export type EntryKind = 'game' | 'position' | 'endgame';

/** A piece of source text with its range. */
export interface Token {
  text: string;
  range: Range;
}

export interface FieldBase {
  /** The field keyword as written (e.g. `size`). */
  keyword: string;
  keywordRange: Range;
  /** From the keyword to the end of the last value token (or of the keyword and its ':' when there is none). */
  range: Range;
}

export interface SizeField extends FieldBase {
  /** Null when missing or invalid (a diagnostic says why). */
  width: number | null;
  height: number | null;
  valueRange: Range | null;
}

export interface PlayersField extends FieldBase {
  /** Exactly two names when valid, otherwise null. */
  names: [string, string] | null;
  nameTokens: Token[];
}

export interface ToMoveField extends FieldBase {
  /** The word as written (`Bob`, `second`, `B`, `2`). */
  text: string | null;
  valueRange: Range | null;
  /** 0 = first player, 1 = second; resolved against the entry's players; null when unknown. */
  player: 0 | 1 | null;
}

export interface ScoreField extends FieldBase {
  score: [number, number] | null;
  valueRanges: Range[];
}

export interface LinesField extends FieldBase {
  /** Each written line, unchecked against the board (the model does that). */
  lines: Token[];
}

export interface DiagramRow {
  kind: 'dot' | 'box';
  /** Row index from the top of the diagram, counted separately for dot rows and box rows. */
  index: number;
  text: string;
  range: Range;
}

/** A drawn line found in the diagram: horizontal (x, y) joins dot (x,y)-(x+1,y); vertical (x,y)-(x,y+1). */
export interface DiagramLine {
  horizontal: boolean;
  x: number;
  y: number;
  range: Range;
}

/** Text inside a box of the diagram (trimmed): an owner's initial or a label. */
export interface DiagramCell {
  x: number;
  y: number;
  text: string;
  range: Range;
}

export interface DiagramField extends FieldBase {
  rows: DiagramRow[];
  /** Boxes across and up, from the dot rows; null when the diagram is unusable. */
  width: number | null;
  height: number | null;
  lines: DiagramLine[];
  cells: DiagramCell[];
  /** Column (character) of each dot of the top dot row. */
  columns: number[];
}

export type Glyph = '!' | '?' | '!!' | '??' | '!?' | '?!';

export interface MoveToken {
  /** The move itself as written, without number, glyph or comment (`a1-b1`, `b1a1`, `haa`). */
  text: string;
  range: Range;
  /** How it was written. */
  form: 'dots' | 'compact' | 'littlegolem';
  /** A move number written right before it (`12.` or `12...`), if any. */
  number: number | null;
  numberRange: Range | null;
  glyph: Glyph | null;
  glyphRange: Range | null;
  /** Brace comments following the move, joined with a space (whitespace collapsed); null if none. */
  comment: string | null;
  commentRange: Range | null;
  /** Index into MovesField.turns when the move came from a littlegolem turn bracket. */
  turn: number | null;
  /** Alternatives to this move, `( … )` written after it, each from the position before it. */
  variations: Variation[];
}

/**
 * A variation `( … )`: an alternative line that replaces the move it follows (it starts from the
 * position before that move). Its moves may carry variations of their own, to any depth.
 */
export interface Variation {
  /** From '(' to ')' — to its last token when it is not closed (an error). */
  range: Range;
  openRange: Range;
  closeRange: Range | null;
  /** The line's moves, in order (never empty: an empty variation is an error and left out). */
  moves: MoveToken[];
  /** Nesting depth: 1 for a variation of the main line. */
  depth: number;
}

/** One littlegolem bracket `;b[hdbhae]`: a turn of one player. */
export interface LittlegolemTurn {
  /** 0 for `b` (first player), 1 for `r` (second). */
  player: 0 | 1;
  letter: string;
  range: Range;
  /** Indices into MovesField.moves of the moves in this bracket, in order. */
  moves: number[];
}

export interface MovesField extends FieldBase {
  /** The main line; variations hang under the move they replace (MoveToken.variations). */
  moves: MoveToken[];
  turns: LittlegolemTurn[];
  /** Every brace comment of the field, including those not attached to a move. */
  comments: Token[];
  /**
   * SGF's PB[…] and PW[…] (first and second player; SGF's black moves first), the first of each:
   * the players' names when the entry has no `players` field.
   */
  sgfPlayers: [Token | null, Token | null];
  /** An SGF property's value was left open (no ']' before the next field or header): text written after it would be read into it. */
  openValue?: true;
}

export interface Component {
  kind: 'chain' | 'loop';
  size: number;
}

export interface ComponentToken extends Token {
  kind: 'chain' | 'loop';
  size: number;
  /** Total repeat count (product of `^n` on the token and on enclosing groups). */
  repeat: number;
}

export interface ExpandedComponent extends Component {
  /** Index into ComponentsField.tokens of the token it came from. */
  token: number;
}

export interface ComponentsField extends FieldBase {
  tokens: ComponentToken[];
  /** Repeats expanded, in written order. */
  components: ExpandedComponent[];
}

export interface PlayStep {
  /** The whole step as written (`3:keep`). */
  text: string;
  range: Range;
  /** The component opened, as written (`3`, `4l`), and parsed. */
  name: string;
  nameRange: Range;
  component: Component | null;
  decision: 'keep' | 'all' | null;
  decisionRange: Range | null;
  comment: string | null;
  commentRange: Range | null;
}

export interface PlayField extends FieldBase {
  steps: PlayStep[];
}

export interface ValueField extends FieldBase {
  value: number | null;
  valueRange: Range | null;
}

export interface Tag {
  name: string;
  value: string;
  range: Range;
  nameRange: Range;
  valueRange: Range;
}

export interface Entry {
  kind: EntryKind;
  title: string | null;
  /** True for the untitled entry formed by fields written before any header. */
  implicit: boolean;
  /** From the header to the end of the entry's last non-blank line. */
  range: Range;
  /** The header line's content (for an implicit entry: its first line). */
  headerRange: Range;
  keywordRange: Range;
  titleRange: Range | null;
  size: SizeField | null;
  players: PlayersField | null;
  tomove: ToMoveField | null;
  score: ScoreField | null;
  lines: LinesField | null;
  diagram: DiagramField | null;
  moves: MovesField | null;
  components: ComponentsField | null;
  play: PlayField | null;
  value: ValueField | null;
  tags: Tag[];
  /** Every field in source order (known ones only; unknown fields are diagnostics). */
  fields: FieldBase[];
  /** The parser's diagnostics inside this entry (also included in ParseResult.diagnostics). */
  diagnostics: Diagnostic[];
}

export interface ParseResult {
  entries: Entry[];
  /** All parser diagnostics of the file, in source order. */
  diagnostics: Diagnostic[];
  /** The header word of the first entry not read (past parseDab's maxEntries), when there is one. */
  unreadFrom?: Range;
}

/** ReadOptions.bytes: the bytes a text was decoded from, checked. */
export interface ByteCheck {
  /** Index in the text of the U+FFFD that replaced the first byte that is not UTF-8; -1 when every byte is. */
  firstBad: number;
  /** How many U+FFFD of the text replaced bytes that are not UTF-8. */
  bad: number;
}
