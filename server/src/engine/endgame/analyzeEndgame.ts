/**
 * One entry point for abstract endgames (`analyzeEndgame`) and the evaluation of a line of play
 * (`evaluatePlay`). Closed form (Allcock 4.1, cross-checked by 4.2) when every component is a long
 * chain or an even loop; the exact recursion otherwise (with a state budget).
 *
 * Sign convention: `value` is the papers' v(G), the controller's margin over the remaining boxes;
 * `valueForOpener` = -v(G) is the spec's value for the player to move (the opener).
 */
import {
  Component,
  ComponentCounts,
  ComponentKind,
  ParseIssue,
  cloneCounts,
  componentCount,
  countOf,
  countsOf,
  formatCounts,
  isSimpleLoony,
  parseComponentName,
  removeComponent,
  totalBoxes,
  typesOf,
  MIN_LOOP,
} from './components';
import {
  ControllerDecision,
  analyzeClosedForm,
  controlledValue,
  statsOf,
  terminalBonus,
  valueAfterOpening,
  rankOpenings,
  valueExplicit,
  valueProcedural,
} from './closedForm';
import { DEFAULT_MAX_STATES, RecursionTable, solveRecursion, stateCount } from './recursion';

export type EndgameMethod = 'closed-form' | 'recursion';

export interface EndgameOptions {
  /** 'auto' (default): closed form when it applies, else recursion. */
  method?: 'auto' | EndgameMethod;
  /** State budget of the recursion (default 2,000,000 sub-multisets). */
  maxStates?: number;
}

export interface EndgameOpening {
  /** canonical name: `3`, `4l` */
  component: string;
  kind: ComponentKind;
  size: number;
  /** how many components of this type are present */
  count: number;
  /** v(G - C), controller margin of the rest (undefined when unknown) */
  valueRest: number | undefined;
  /** v(G;C): controller margin once C is opened (2-chains: by the middle line) and answered optimally */
  valueAfter: number | undefined;
  optimal: boolean;
  /** the controller's best reply: keep (hard-hearted handout), all, or either; 'all' when no choice */
  decision: ControllerDecision | undefined;
}

export interface EndgameAnalysis {
  /** canonical text of the multiset */
  components: string;
  size: number;
  componentCount: number;
  /** c(G) (1.1); null when short chains or odd/short loops are present (not defined there) */
  controlledValue: number | null;
  /** tb(G) (1.2); null as above */
  terminalBonus: number | null;
  /** v(G): controller margin under best play (undefined when over budget) */
  value: number | undefined;
  /** -v(G): value for the opener, the player to move (spec convention) */
  valueForOpener: number | undefined;
  method: EndgameMethod;
  exact: boolean;
  openings: EndgameOpening[];
  /** every optimal opener move (component names) */
  best: string[];
  /** why the value is unknown, when it is */
  reason?: string;
  /** remarks for display (odd loops, 2-chains opened by the middle line, ...) */
  notes: string[];
}

/** Values of sub-multisets of one root multiset, by whichever method applies. */
export interface EndgameEvaluator {
  readonly method: EndgameMethod;
  /** v of a sub-multiset of the root (undefined: unknown / over budget / not a sub-multiset) */
  value(g: ComponentCounts): number | undefined;
}

export function makeEvaluator(root: ComponentCounts, options: EndgameOptions = {}): EndgameEvaluator {
  const method = options.method ?? 'auto';
  const simple = isSimpleLoony(root);
  if (method === 'closed-form' && !simple)
    throw new RangeError('the closed form needs long chains (>= 3) and even loops (>= 4) only');
  if (simple && method !== 'recursion') {
    return { method: 'closed-form', value: (g) => valueExplicit(statsOf(g)) };
  }
  let table: RecursionTable | undefined | null = null;
  return {
    method: 'recursion',
    value: (g) => {
      if (table === null) table = solveRecursion(root, { maxStates: options.maxStates });
      return table?.value(g);
    },
  };
}

function notesFor(g: ComponentCounts): string[] {
  const notes: string[] = [];
  for (const s of g.loops.keys()) {
    if (s % 2 === 1) notes.push(`${s}l is an odd loop: it exists only in strings-and-coins`);
  }
  if ((g.chains.get(2) ?? 0) > 0)
    notes.push('a 2-chain is best opened by the line between its two boxes (the controller then has no choice)');
  return notes;
}

/**
 * Analyse an abstract endgame: value, controlled value, every opening with its value and the
 * controller's decision, and all optimal openings.
 */
export function analyzeEndgame(
  components: Iterable<Component> | ComponentCounts | string,
  options: EndgameOptions = {},
): EndgameAnalysis {
  const g = countsOf(components);
  const method = options.method ?? 'auto';
  const simple = isSimpleLoony(g);
  if (method === 'closed-form' && !simple)
    throw new RangeError('the closed form needs long chains (>= 3) and even loops (>= 4) only');
  if (simple && method !== 'recursion') {
    const cf = analyzeClosedForm(g);
    return {
      components: formatCounts(g),
      size: cf.size,
      componentCount: componentCount(g),
      controlledValue: cf.controlledValue,
      terminalBonus: cf.terminalBonus,
      value: cf.value,
      valueForOpener: -cf.value + 0,
      method: 'closed-form',
      exact: true,
      openings: cf.openings,
      best: cf.best,
      notes: [],
    };
  }
  const base = {
    components: formatCounts(g),
    size: totalBoxes(g),
    componentCount: componentCount(g),
    notes: notesFor(g),
  };
  let cValue: number | null = null,
    tb: number | null = null;
  if (simple) {
    const st = statsOf(g);
    cValue = controlledValue(st);
    tb = terminalBonus(st);
  }
  const maxStates = options.maxStates ?? DEFAULT_MAX_STATES;
  const table = solveRecursion(g, { maxStates });
  const types = typesOf(g);
  if (!table) {
    const n = stateCount(g);
    return {
      ...base,
      controlledValue: cValue,
      terminalBonus: tb,
      value: undefined,
      valueForOpener: undefined,
      method: 'recursion',
      exact: false,
      openings: types.map((t) => ({
        component: t.name,
        kind: t.kind,
        size: t.size,
        count: t.count,
        valueRest: undefined,
        valueAfter: undefined,
        optimal: false,
        decision: undefined,
      })),
      best: [],
      reason: `the exact recursion needs ${Number.isFinite(n) ? n.toLocaleString('en-US') : 'too many'} states, above the budget of ${maxStates.toLocaleString('en-US')}`,
    };
  }
  const { openings, best } = rankOpenings(types, (_t, i) => table.table[table.rootIndex - table.radix[i]]);
  const value = table.rootValue;
  return {
    ...base,
    controlledValue: cValue,
    terminalBonus: tb,
    value,
    valueForOpener: -value + 0,
    method: 'recursion',
    exact: true,
    openings,
    best,
  };
}

/** Both closed forms (4.1 explicit, 4.2 procedural) for a simple loony endgame. */
export function closedFormValues(components: Iterable<Component> | ComponentCounts | string): {
  explicit: number;
  procedural: number;
} {
  const st = statsOf(countsOf(components));
  return { explicit: valueExplicit(st), procedural: valueProcedural(st) };
}

// ---------------------------------------------------------------------------------------------
// Lines of play

export interface PlayStep {
  /** the token as written, e.g. `3:keep` */
  text: string;
  component: Component;
  suffix?: 'keep' | 'all';
  /** offsets into the parsed text (0 when built by hand) */
  start: number;
  end: number;
}

export type PlayParse = { ok: true; steps: PlayStep[] } | { ok: false; steps: PlayStep[]; errors: ParseIssue[] };

/** Parse `3:keep 4l:all 3` (spaces or commas between steps). */
export function parsePlay(text: string): PlayParse {
  const steps: PlayStep[] = [];
  const errors: ParseIssue[] = [];
  const re = /[^\s,]+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const tok = m[0],
      start = m.index,
      end = start + tok.length;
    const mm = /^([^:]+)(?::([A-Za-z]*))?$/.exec(tok);
    if (!mm) {
      errors.push({
        message: `'${tok}' is not a step: write a component, optionally with :keep or :all (e.g. 3:keep)`,
        start,
        end,
      });
      continue;
    }
    const r = parseComponentName(mm[1], MIN_LOOP);
    if (!r.ok) {
      errors.push({ message: r.message, start, end });
      continue;
    }
    let suffix: 'keep' | 'all' | undefined;
    if (mm[2] !== undefined) {
      const sfx = mm[2].toLowerCase();
      if (sfx !== 'keep' && sfx !== 'all') {
        errors.push({ message: `'${tok}': the suffix must be :keep or :all`, start, end });
        continue;
      }
      suffix = sfx;
    }
    steps.push({ text: tok, component: r.component, suffix, start, end });
  }
  return errors.length ? { ok: false, steps, errors } : { ok: true, steps };
}

export interface PlayStepResult {
  index: number;
  text: string;
  start: number;
  end: number;
  component: string;
  kind: ComponentKind;
  size: number;
  /** who opened: 0 = the side that was opener (to move) at the start, 1 = the other */
  opener: 0 | 1;
  /** v(G) before the step: controller margin with the opener to move */
  valueBefore: number | undefined;
  /** all optimal openings before the step */
  bestOpenings: string[];
  /** v(G;C) for the opening as played (a 2-chain with a suffix counts as opened at an end) */
  openingValue: number | undefined;
  /** boxes the opener threw away: openingValue - valueBefore (0 = optimal) */
  openerLoss: number | undefined;
  /** what the controller did; 'all' when it had no choice */
  decision: 'keep' | 'all';
  /** whether the controller had a real choice */
  choice: boolean;
  /** the controller's best reply(ies) */
  bestDecision: ControllerDecision | undefined;
  /** controller margin from this step on, given the reply made */
  decisionValue: number | undefined;
  /** boxes the controller threw away: openingValue - decisionValue (0 = optimal) */
  controllerLoss: number | undefined;
  /** boxes won by side 0 and side 1 from the start up to and including this step */
  score: [number, number];
  /** who opens next (undefined after the last component) */
  nextOpener: 0 | 1 | undefined;
  /** illegal step; evaluation stops here */
  error?: string;
  /** harmless remark (e.g. an unneeded suffix) */
  note?: string;
}

export interface PlayEvaluation {
  /** false when a step was illegal (see the step's error) */
  ok: boolean;
  /** method used for values */
  method: EndgameMethod;
  steps: PlayStepResult[];
  /** boxes for side 0 / side 1 after the evaluated steps */
  score: [number, number];
  /** components not yet played */
  remaining: string;
  /** the line plays out every component */
  complete: boolean;
  /** v of the remaining endgame and who opens it (when not complete and legal) */
  remainingValue?: number;
  nextOpener?: 0 | 1;
}

function decideBest(keep: number | undefined, all: number): ControllerDecision {
  if (keep === undefined || all > keep) return 'all';
  if (keep > all) return 'keep';
  return 'either';
}

/**
 * Evaluate a line of play: for each step the value before, the value of the opening as played,
 * the controller's decision and the boxes each side threw away. Illegal steps (component not
 * present, missing suffix, :keep where no handout exists) stop the evaluation with an error.
 */
export function evaluatePlay(
  components: Iterable<Component> | ComponentCounts | string,
  play: string | PlayStep[],
  options: EndgameOptions = {},
): PlayEvaluation {
  const root = countsOf(components);
  const ev = makeEvaluator(root, options);
  let steps: PlayStep[];
  const out: PlayStepResult[] = [];
  const score: [number, number] = [0, 0];
  let parseErrors: ParseIssue[] = [];
  if (typeof play === 'string') {
    const p = parsePlay(play);
    steps = p.steps;
    if (!p.ok) parseErrors = p.errors;
  } else steps = play;
  const g = cloneCounts(root);
  let opener: 0 | 1 = 0;
  let ok = true;
  if (parseErrors.length) {
    // Report the first malformed token as an illegal step, keeping the well-formed steps before it.
    const firstBad = parseErrors[0];
    steps = steps.filter((s) => s.start < firstBad.start);
  }
  for (let i = 0; i < steps.length; i++) {
    const st = steps[i];
    const c = st.component;
    const name = c.kind === 'loop' ? `${c.size}l` : `${c.size}`;
    const vBefore = ev.value(g);
    const bestOpenings = bestOpeningsOf(g, ev);
    const res = stepBefore(
      { index: i, text: st.text, start: st.start, end: st.end, component: name, kind: c.kind, size: c.size },
      { opener, valueBefore: vBefore, bestOpenings },
      score,
    );
    out.push(res);
    if (countOf(g, c) === 0) {
      res.error = `there is no ${name} left to open (remaining: ${formatCounts(g)})`;
      ok = false;
      break;
    }
    removeComponent(g, c);
    const last = componentCount(g) === 0;
    const vRest = ev.value(g);
    const n = c.size;
    // The handout available to the controller for this opening.
    let handout: number | undefined;
    if (c.kind === 'chain') {
      if (n >= 3) handout = 2;
      else if (n === 2 && st.suffix !== undefined) handout = 2; // opened at an end: the controller may decline
    } else if (n >= 4) handout = 4;
    if (handout === undefined) {
      if (st.suffix === 'keep') {
        res.error =
          c.kind === 'chain'
            ? `a ${n}-chain${n === 2 ? '' : ''} cannot be declined: there is no handout`
            : `a ${n}-loop cannot be declined: every move in it captures`;
        ok = false;
        break;
      }
      if (st.suffix === 'all') res.note = `the :all suffix is not needed for ${name}`;
    } else if (st.suffix === undefined) {
      if (!last) {
        res.error = `say what the controller did after ${name} is opened: ${name}:keep or ${name}:all`;
        ok = false;
        break;
      }
    } else if (st.suffix === 'all' && last) res.note = `the :all suffix is not needed for the last component`;
    if (c.kind === 'chain' && n === 2 && st.suffix !== undefined) {
      res.note =
        'a 2-chain with a suffix is taken as opened at an end (the controller may decline); opened by its middle line the controller has no choice';
    }
    const decision: 'keep' | 'all' = handout !== undefined && st.suffix === 'keep' ? 'keep' : 'all';
    res.decision = decision;
    res.choice = handout !== undefined;
    if (vRest !== undefined && vBefore !== undefined) {
      const allV = n - vRest;
      const keepV = handout === undefined ? undefined : n - 2 * handout + vRest;
      const openingValue = keepV === undefined ? allV : Math.max(allV, keepV);
      res.openingValue = openingValue;
      res.openerLoss = openingValue - vBefore;
      res.bestDecision = decideBest(keepV, allV);
      res.decisionValue = decision === 'keep' ? keepV! : allV;
      res.controllerLoss = openingValue - res.decisionValue;
    }
    const controller: 0 | 1 = opener === 0 ? 1 : 0;
    if (decision === 'keep') {
      score[controller] += n - handout!;
      score[opener] += handout!;
    } else {
      score[controller] += n;
      opener = controller;
    }
    res.score = [score[0], score[1]];
    res.nextOpener = last ? undefined : opener;
  }
  if (ok && parseErrors.length) {
    const e = parseErrors[0];
    const bad = stepBefore(
      { index: out.length, text: '', start: e.start, end: e.end, component: '', kind: 'chain', size: 0 },
      { opener, valueBefore: ev.value(g), bestOpenings: bestOpeningsOf(g, ev) },
      score,
    );
    bad.error = e.message;
    out.push(bad);
    ok = false;
  }
  const complete = componentCount(g) === 0;
  const result: PlayEvaluation = { ok, method: ev.method, steps: out, score, remaining: formatCounts(g), complete };
  if (ok && !complete) {
    result.remainingValue = ev.value(g);
    result.nextOpener = opener;
  }
  return result;
}

/** A step's result before its opening and decision are valued: what was written and the position it starts from. */
function stepBefore(
  written: Pick<PlayStepResult, 'index' | 'text' | 'start' | 'end' | 'component' | 'kind' | 'size'>,
  before: Pick<PlayStepResult, 'opener' | 'valueBefore' | 'bestOpenings'>,
  score: [number, number],
): PlayStepResult {
  return {
    ...written,
    ...before,
    openingValue: undefined,
    openerLoss: undefined,
    decision: 'all',
    choice: false,
    bestDecision: undefined,
    decisionValue: undefined,
    controllerLoss: undefined,
    score: [score[0], score[1]],
    nextOpener: undefined,
  };
}

function bestOpeningsOf(g: ComponentCounts, ev: EndgameEvaluator): string[] {
  const types = typesOf(g);
  let min = Infinity;
  const vals: (number | undefined)[] = [];
  for (const t of types) {
    removeComponent(g, t);
    const vr = ev.value(g);
    g[t.kind === 'loop' ? 'loops' : 'chains'].set(t.size, t.count);
    const v = vr === undefined ? undefined : valueAfterOpening(t.kind, t.size, vr);
    vals.push(v);
    if (v === undefined) return [];
    if (v < min) min = v;
  }
  return types.filter((_, i) => vals[i] === min).map((t) => t.name);
}
