/**
 * Readers of the fields of an abstract endgame: `components` (chains and loops with repeats and
 * groups, `3 + 4l + (6l + 3)^2`) and `play` (the components opened in turn, `3:keep 4l:all`).
 */
import type { ComponentToken, ComponentsField, ExpandedComponent, FieldBase, PlayField, PlayStep, Range } from './ast';
import { clip, span, sub, type Report } from './text';
import type { RawToken } from './tokens';

import { MAX_COMPONENTS, MAX_FILE_COMPONENTS, MAX_GROUP_DEPTH } from '../limits';

/** A piece of the components text: a parenthesis, a component, a repeat `^n`, or something unreadable. */
interface Piece {
  kind: 'open' | 'close' | 'comp' | 'repeat' | 'bad' | 'plus';
  text: string;
  range: Range;
  size?: number;
  loop?: boolean;
  rep?: number;
  /** A repeat written right after ')' without a space. */
  glued?: boolean;
}

/** The tree of groups: a component token, or a group repeated `rep` times. */
type Node = { token: number } | { group: Node[]; rep: number };

export function componentsField(
  cx: { report: Report; componentsLeft: number },
  base: FieldBase,
  toks: RawToken[],
): ComponentsField {
  const f: ComponentsField = { ...base, tokens: [], components: [] };
  const pieces = componentPieces(toks);
  const stack: { nodes: Node[]; open: Range | null }[] = [{ nodes: [], open: null }];
  /** '(' beyond MAX_GROUP_DEPTH not yet closed (they open no group). */
  let tooDeep = 0;
  /** "nested too deeply" is said once a field (found by a review: once a group, 2,000 lines). */
  let toldTooDeep = false;
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    const top = stack[stack.length - 1];
    if (p.kind === 'plus') {
      // a '+' that separates nothing is harmless, but may stand where a component was forgotten
      const before = pieces[i - 1]?.kind;
      const after = pieces[i + 1]?.kind;
      if (before === 'plus')
        cx.report('warning', p.range, 'bad-component', "two '+' in a row: is a component missing between them?");
      else if (before === undefined || before === 'open')
        cx.report('warning', p.range, 'bad-component', "'+' with no component before it: is one missing?");
      else if (after === undefined || after === 'close')
        cx.report('warning', p.range, 'bad-component', "'+' with no component after it: is one missing?");
    } else if (p.kind === 'bad') {
      cx.report(
        'error',
        p.range,
        'bad-component',
        /^\d{10,}/.test(p.text) || /[\^*]\d{10,}$/.test(p.text)
          ? `'${clip(p.text)}' is out of range: a size or repeat count has at most 9 digits`
          : `'${clip(p.text)}' is not a component: write N for a chain of N boxes, Nl for a loop, with ^n to repeat (e.g. 3 + 4l + 6l^2)`,
      );
    } else if (p.kind === 'open') {
      if (stack.length > MAX_GROUP_DEPTH) {
        // said once; its ')' then closes nothing, and is not "unmatched" (found by an audit)
        tooDeep++;
        if (!toldTooDeep) {
          cx.report('error', p.range, 'bad-component', `parentheses nested too deeply (at most ${MAX_GROUP_DEPTH})`);
          toldTooDeep = true;
        }
        continue;
      }
      stack.push({ nodes: [], open: p.range });
    } else if (p.kind === 'close') {
      if (tooDeep > 0 && stack.length === MAX_GROUP_DEPTH + 1) {
        tooDeep--;
        continue;
      }
      if (stack.length === 1) {
        cx.report('error', p.range, 'bad-component', "unmatched ')'");
        continue;
      }
      stack.pop();
      let rep = 1;
      const nx = pieces[i + 1];
      if (nx && nx.kind === 'repeat' && nx.glued) {
        rep = nx.rep!;
        i++;
      }
      if (rep === 0) cx.report('error', nx!.range, 'bad-component', 'a repeat count must be at least 1');
      stack[stack.length - 1].nodes.push({ group: top.nodes, rep: Math.max(1, rep) });
    } else if (p.kind === 'repeat') {
      cx.report(
        'error',
        p.range,
        'bad-component',
        'a repeat (^n) must follow a component or a closing parenthesis without a space, e.g. 6l^9',
      );
    } else {
      if (p.rep === 0) {
        cx.report('error', p.range, 'bad-component', 'a repeat count must be at least 1');
        continue;
      }
      const tok: ComponentToken = {
        text: p.text,
        range: p.range,
        kind: p.loop ? 'loop' : 'chain',
        size: p.size!,
        repeat: p.rep!,
      };
      f.tokens.push(tok);
      const node: Node = { token: f.tokens.length - 1 };
      top.nodes.push(p.rep === 1 ? node : { group: [node], rep: p.rep! });
    }
  }
  while (stack.length > 1) {
    const s = stack.pop()!;
    cx.report('error', s.open!, 'bad-component', "unmatched '(': add ')'");
    stack[stack.length - 1].nodes.push({ group: s.nodes, rep: 1 });
  }
  // Count, then expand (guarding against huge repeats).
  const count = (nodes: Node[]): number => {
    let c = 0;
    for (const nd of nodes) {
      c += 'token' in nd ? 1 : nd.rep * count(nd.group);
      if (c > MAX_COMPONENTS) return Infinity;
    }
    return c;
  };
  const total = count(stack[0].nodes);
  const markRepeat = (nodes: Node[], m: number): void => {
    for (const nd of nodes) {
      if ('token' in nd) f.tokens[nd.token].repeat = m;
      else markRepeat(nd.group, nd.rep * m);
    }
  };
  markRepeat(stack[0].nodes, 1);
  if (total > MAX_COMPONENTS || total > cx.componentsLeft) {
    cx.report(
      'error',
      f.tokens.length ? span(f.tokens[0].range, f.tokens[f.tokens.length - 1].range) : base.keywordRange,
      'bad-component',
      total > MAX_COMPONENTS
        ? `too many components (more than ${MAX_COMPONENTS} after repeats)`
        : `too many components in this file: its endgames may hold ${MAX_FILE_COMPONENTS} after repeats together, and ${MAX_FILE_COMPONENTS - cx.componentsLeft} are already used above`,
    );
    return f;
  }
  cx.componentsLeft -= total;
  const expand = (nodes: Node[], out: ExpandedComponent[]): void => {
    for (const nd of nodes) {
      if ('token' in nd) {
        const t = f.tokens[nd.token];
        out.push({ kind: t.kind, size: t.size, token: nd.token });
      } else {
        for (let r = 0; r < nd.rep; r++) expand(nd.group, out);
      }
    }
  };
  expand(stack[0].nodes, f.components);
  if (f.components.length === 0 && !pieces.some((p) => p.kind === 'bad')) {
    cx.report(
      'error',
      base.keywordRange,
      'bad-component',
      'components needs at least one chain or loop, e.g. components 3 + 4l',
    );
  }
  return f;
}

/** Split the tokens into pieces: '+' separates, parentheses group, `^n` (or `*n`) repeats. */
function componentPieces(toks: RawToken[]): Piece[] {
  const pieces: Piece[] = [];
  for (const t of toks) {
    if (t.type === 'comment') continue;
    if (t.type === 'string') {
      pieces.push({ kind: 'bad', text: t.text, range: t.range });
      continue;
    }
    if (t.type === 'punct') {
      if (t.text === '(') pieces.push({ kind: 'open', text: '(', range: t.range });
      else if (t.text === ')') pieces.push({ kind: 'close', text: ')', range: t.range });
      else pieces.push({ kind: 'bad', text: t.text, range: t.range });
      continue;
    }
    const re = /\+|([^+]+)/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(t.text))) {
      if (!m[1]) {
        pieces.push({ kind: 'plus', text: '+', range: sub(t.range, m.index, m.index + 1) });
        continue;
      }
      const r = sub(t.range, m.index, m.index + m[1].length);
      const prev = pieces[pieces.length - 1];
      const glued =
        m.index === 0 &&
        prev !== undefined &&
        prev.kind === 'close' &&
        prev.range.line === r.line &&
        prev.range.endCharacter === r.character;
      const c = /^(\d{1,9})([lLℓ]?)(?:[\^*](\d{1,9}))?$/.exec(m[1]);
      const rp = /^[\^*](\d{1,9})$/.exec(m[1]);
      if (c)
        pieces.push({
          kind: 'comp',
          text: m[1],
          range: r,
          size: Number(c[1]),
          loop: c[2] !== '',
          rep: c[3] === undefined ? 1 : Number(c[3]),
        });
      else if (rp) pieces.push({ kind: 'repeat', text: m[1], range: r, rep: Number(rp[1]), glued });
      else pieces.push({ kind: 'bad', text: m[1], range: r });
    }
  }
  return pieces;
}

/** The token after `k`, comments aside. */
function nextValue(toks: RawToken[], k: number): RawToken | undefined {
  for (let j = k + 1; j < toks.length; j++) if (toks[j].type !== 'comment') return toks[j];
  return undefined;
}

export function playField(cx: { report: Report }, base: FieldBase, toks: RawToken[]): PlayField {
  const f: PlayField = { ...base, steps: [] };
  let last: PlayStep | null = null;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (t.type === 'comment') {
      if (last) {
        last.comment = last.comment === null ? t.text : `${last.comment} ${t.text}`;
        last.commentRange = last.commentRange === null ? t.range : span(last.commentRange, t.range);
      }
      continue;
    }
    if (t.type !== 'word') {
      cx.report('error', t.range, 'bad-play', `unexpected '${clip(t.text)}' in play: write steps like 3:keep 4l:all 3`);
      last = null;
      continue;
    }
    const dec = /^:?(keep|all)$/i.exec(t.text);
    if (dec) {
      if (last && last.decision === null) {
        last.decision = dec[1].toLowerCase() as 'keep' | 'all';
        last.decisionRange = t.range;
        last.text = `${last.text.replace(/:$/, '')}:${last.decision}`;
        last.range = span(last.range, t.range);
      } else {
        cx.report('error', t.range, 'bad-play', `'${t.text}' must follow a component, e.g. 3:${dec[1].toLowerCase()}`);
      }
      continue;
    }
    const m = /^(\d{1,9})([lLℓ]?)(?::([A-Za-z]*))?$/.exec(t.text);
    if (!m) {
      cx.report(
        'error',
        t.range,
        'bad-play',
        `'${clip(t.text)}' is not a play step: write the component opened (3, 4l), optionally with :keep or :all`,
      );
      last = null;
      continue;
    }
    const nameLen = m[1].length + m[2].length;
    const step: PlayStep = {
      text: t.text,
      range: t.range,
      name: t.text.slice(0, nameLen),
      nameRange: sub(t.range, 0, nameLen),
      component: { kind: m[2] ? 'loop' : 'chain', size: Number(m[1]) },
      decision: null,
      decisionRange: null,
      comment: null,
      commentRange: null,
    };
    if (m[3] !== undefined) {
      const d = m[3].toLowerCase();
      const dr = sub(t.range, nameLen + 1, t.text.length);
      if (d === 'keep' || d === 'all') {
        step.decision = d;
        step.decisionRange = dr;
      } else if (d === '' && /^(?:keep|all)$/i.test(nextValue(toks, k)?.text ?? '')) {
        // `3: keep`, the decision after a space: read as `3 keep` (the next token)
      } else
        cx.report(
          'error',
          m[3] ? dr : sub(t.range, nameLen, nameLen + 1),
          'bad-play',
          `after ':' write keep (the controller keeps control) or all (takes everything)`,
        );
    }
    f.steps.push(step);
    last = step;
  }
  return f;
}
