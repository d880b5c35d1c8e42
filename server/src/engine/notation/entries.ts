/**
 * Entries: the header line (`game "title"`), tag lines (`[Event "Club"]`), and the checks made
 * when an entry ends (fields that do not belong to its kind, `tomove` resolved against the players).
 */
import type { Entry, EntryKind, Range, Tag } from './ast';
import { initialOf, resolvePlayer } from './names';
import { clip, range, span, type Report } from './text';
import type { RawToken } from './tokens';

const NOT_IN_ENDGAME = new Set<string>(['size', 'lines', 'diagram', 'moves']);
const ONLY_IN_ENDGAME = new Set<string>(['components', 'play']);

export function newEntry(kind: EntryKind, implicit: boolean, header: Range, kw: Range): Entry {
  return {
    kind,
    title: null,
    implicit,
    range: header,
    headerRange: header,
    keywordRange: kw,
    titleRange: null,
    size: null,
    players: null,
    tomove: null,
    score: null,
    lines: null,
    diagram: null,
    moves: null,
    components: null,
    play: null,
    value: null,
    tags: [],
    fields: [],
    diagnostics: [],
  };
}

/**
 * Read what follows the keyword on a header line (`toks`, lexed from line `t`): the title, quoted or
 * not. Sets the entry's header range and title.
 */
export function readHeader(report: Report, entry: Entry, t: string, word: string, toks: RawToken[]): void {
  const kw = entry.keywordRange;
  const i = kw.line;
  entry.headerRange = toks.length
    ? range(
        i,
        kw.character,
        i,
        toks[toks.length - 1].range.endLine === i ? toks[toks.length - 1].range.endCharacter : t.length,
      )
    : kw;
  entry.range = entry.headerRange;
  for (const x of toks)
    if (x.type === 'comment')
      report('error', x.range, 'bad-header', 'a comment in braces cannot stand on a header line; use # for a comment');
  const vals = toks.filter((x) => x.type !== 'comment');
  if (vals.length === 0) return;
  if (vals[0].type === 'string') {
    entry.title = vals[0].text;
    entry.titleRange = vals[0].range;
    if (vals.length > 1)
      report(
        'error',
        span(vals[1].range, vals[vals.length - 1].range),
        'bad-header',
        'unexpected text after the title: fields go on their own lines below the header',
      );
  } else {
    const r = span(vals[0].range, vals[vals.length - 1].range);
    entry.title = t.slice(r.character, r.endCharacter);
    entry.titleRange = r;
    report('warning', r, 'bad-header', `put the title in quotes: ${word} "${entry.title.replace(/"/g, '\\"')}"`);
  }
}

/** Read the tags of a tag line (`[Name "text"] [Other "text"]`), handing each good one to `add`. */
export function readTags(report: Report, toks: RawToken[], add: (tag: Tag) => void): void {
  toks = toks.filter((x) => x.type !== 'comment');
  let k = 0;
  while (k < toks.length) {
    const open = toks[k];
    if (!(open.type === 'punct' && open.text === '[')) {
      report('error', open.range, 'bad-tag', 'expected a tag like [Event "Club championship"]');
      k++;
      continue;
    }
    const name = toks[k + 1];
    const val = toks[k + 2];
    const close = toks[k + 3];
    if (!name || name.type !== 'word' || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name.text)) {
      report(
        'error',
        name ? span(open.range, name.range) : open.range,
        'bad-tag',
        'a tag is [Name "text"], e.g. [Date "2024-05-01"]',
      );
      k = skipTo(toks, k + 1, ']');
      continue;
    }
    if (!val || (val.type !== 'string' && val.type !== 'word')) {
      report(
        'error',
        span(open.range, name.range),
        'bad-tag',
        `tag ${name.text} needs a quoted value: [${name.text} "text"]`,
      );
      k = skipTo(toks, k + 1, ']');
      continue;
    }
    if (!close || close.type !== 'punct' || close.text !== ']') {
      // more before a ']' (`[Event "a" "b"]`): the tag is closed, but holds more than one value
      let j = k + 3;
      while (j < toks.length && !(toks[j].type === 'punct' && (toks[j].text === ']' || toks[j].text === '['))) j++;
      if (j < toks.length && toks[j].text === ']') {
        report(
          'error',
          span(toks[k + 3].range, toks[j - 1].range),
          'bad-tag',
          `tag ${name.text} takes one value: quote it whole, e.g. [${name.text} "a b"]; this text is ignored`,
        );
        if (!val.unterminated)
          add({
            name: name.text,
            value: val.text,
            range: span(open.range, toks[j].range),
            nameRange: name.range,
            valueRange: val.range,
          });
        k = j + 1;
        continue;
      }
      report('error', span(open.range, val.range), 'bad-tag', `tag ${name.text} is not closed: add ']'`);
      k = skipTo(toks, k + 1, ']');
      if (!val.unterminated)
        add({
          name: name.text,
          value: val.text,
          range: span(open.range, val.range),
          nameRange: name.range,
          valueRange: val.range,
        });
      continue;
    }
    add({
      name: name.text,
      value: val.text,
      range: span(open.range, close.range),
      nameRange: name.range,
      valueRange: val.range,
    });
    k += 4;
  }
}

/** The index after the next `text` punctuation (stopping early at a '[' that opens the next tag). */
function skipTo(toks: RawToken[], k: number, text: string): number {
  while (k < toks.length && !(toks[k].type === 'punct' && toks[k].text === text)) {
    if (toks[k].type === 'punct' && toks[k].text === '[') return k;
    k++;
  }
  return k + 1;
}

/** The checks made once an entry is complete; errors go through `push` (they are never capped). */
export function checkEntry(e: Entry, push: (r: Range, code: string, message: string) => void): void {
  // Fields not allowed in this kind of entry.
  for (const fl of e.fields) {
    const name = fl.keyword.toLowerCase();
    if (e.kind === 'endgame' && NOT_IN_ENDGAME.has(name)) {
      push(
        fl.keywordRange,
        'field-not-allowed',
        `an endgame lists components, not a board: '${name}' belongs in a game or position entry`,
      );
      (e as unknown as Record<string, unknown>)[name] = null;
    } else if (e.kind !== 'endgame' && ONLY_IN_ENDGAME.has(name)) {
      push(
        fl.keywordRange,
        'field-not-allowed',
        `'${name}' belongs in an endgame entry (abstract chains and loops), not in a ${e.kind}`,
      );
      (e as unknown as Record<string, unknown>)[name] = null;
    }
  }
  // Resolve tomove against the players.
  if (e.tomove && e.tomove.text !== null) {
    const names = playerNames(e);
    const p = resolvePlayer(e.tomove.text, names);
    const low = e.tomove.text.toLowerCase();
    const bothInitial =
      [...low].length === 1 && initialOf(names[0]).toLowerCase() === low && initialOf(names[1]).toLowerCase() === low;
    if (p === null && (low === names[0].toLowerCase() || bothInitial)) {
      // it fits both players (names that differ only in case, or a shared initial)
      push(
        e.tomove.valueRange!,
        'bad-tomove',
        `'${clip(e.tomove.text)}' ${bothInitial ? 'is the initial of' : 'names, ignoring case,'} both players, ${names.map((x) => `"${clip(x)}"`).join(' and ')}: write the name exactly as in ${e.players ? 'players' : 'PB[…] and PW[…]'}, or first or second`,
      );
    } else if (p === null) {
      push(
        e.tomove.valueRange!,
        'bad-tomove',
        `'${clip(e.tomove.text)}' is not a player here: write ${names.map((x) => `"${clip(x)}"`).join(' or ')}, first or second`,
      );
    }
    e.tomove.player = p;
  }
}

/**
 * The players' names: the players field's (A and B when it is broken), else those of SGF's PB[…] and
 * PW[…] in the moves when both are given, else A and B. (One SGF name alone is not used: the other
 * player's default B would be read as SGF's B, the first player.)
 */
export function playerNames(e: Entry): [string, string] {
  if (e.players) return e.players.names ?? ['A', 'B'];
  const [pb, pw] = e.moves?.sgfPlayers ?? [null, null];
  return pb && pw ? [pb.text, pw.text] : ['A', 'B'];
}
