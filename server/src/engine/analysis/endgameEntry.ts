/**
 * Abstract endgame entries (`components 3 + 4l + 8l`, with `play`): the start valued by the endgame
 * theory, then each step of the play as two moves, the opening (the opener's) and the keep-or-all
 * decision (the controller's), each reviewed like a board move.
 */
import { analyzeEndgame, evaluatePlay, type PlayStep as EndgamePlayStep } from '../endgame';
import type { EntryModel } from '../notation';
import { MAX_ENDGAME_PLAY_WORK } from '../limits';
import { endOpenedWords } from '../phrasebook';
import { pushMove } from './moveReview';
import { emptyReport, type EntryReport, type PositionReport } from './report';

export function analyzeEndgameEntry(model: EntryModel, index: number): EntryReport {
  const report = emptyReport(model, index);
  const eg = model.endgame;
  // A component list with errors is not analysed: a value of what is left would mislead.
  const broken = [...model.entry.diagnostics, ...model.diagnostics].some(
    (d) => d.severity === 'error' && d.code === 'bad-component',
  );
  if (!eg || broken || (eg.components.length === 0 && model.entry.components)) return report;
  const total = eg.totalBoxes;
  const root = analyzeEndgame(eg.components);
  const rootValue = root.value === undefined ? null : -root.value + 0;
  report.positions.push({
    ply: 0,
    toMove: eg.opener,
    score: [eg.score[0], eg.score[1]],
    remaining: total,
    value: rootValue,
    exact: root.exact,
    pending: false,
    lower: rootValue,
    upper: rootValue,
    controlledValue: root.controlledValue === null ? null : -root.controlledValue + 0,
    best: root.value === undefined ? [] : root.best.slice(),
    result: null,
    method: root.exact ? 'endgame' : 'unknown',
    note: root.reason,
    endgame: root,
    components: eg.components.slice(),
    moveValues: new Map(root.openings.map((o) => [o.component, o.valueAfter === undefined ? null : -o.valueAfter + 0])),
  });
  const allLegal = eg.steps.filter((s) => s.legal && s.component);
  // each analysed step keeps the list of what is left: steps x components is bounded
  const analysable = Math.max(1, Math.floor(MAX_ENDGAME_PLAY_WORK / Math.max(1, eg.components.length)));
  const legal = allLegal.slice(0, analysable);
  if (allLegal.length > legal.length)
    report.playLeftOut = { range: allLegal[legal.length].range, steps: allLegal.length - legal.length };
  if (legal.length === 0) return report;
  const steps: EndgamePlayStep[] = legal.map((s) => ({
    text: s.step.text,
    component: s.component!,
    suffix: s.step.decision ?? undefined,
    start: 0,
    end: 0,
  }));
  const play = evaluatePlay(eg.components, steps);
  let score: [number, number] = [eg.score[0], eg.score[1]];
  let remaining = total;
  let rest = eg.components;
  play.steps.forEach((r, i) => {
    if (r.error) return;
    const sm = legal[i];
    const opener = sm.opener!,
      controller = sm.controller!;
    // After the opening: the controller to move, choosing keep or all.
    rest = remainingAfter(rest, [legal[i].component!]);
    const restComponents = rest; // this step's list (rest moves on at the next)
    const restAnalysis = restComponents.length > 0 ? analyzeEndgame(restComponents) : undefined;
    const vRest = restAnalysis ? restAnalysis.value : 0;
    const all = vRest === undefined ? null : r.size - vRest;
    const keep = vRest === undefined || !r.choice ? null : r.size - 2 * (r.kind === 'loop' ? 4 : 2) + vRest;
    const afterOpening: PositionReport = {
      ply: report.positions.length,
      toMove: controller,
      score: [score[0], score[1]],
      remaining,
      value: r.openingValue ?? null,
      exact: r.openingValue !== undefined,
      pending: false,
      lower: r.openingValue ?? null,
      upper: r.openingValue ?? null,
      controlledValue: null,
      best: r.bestDecision === undefined ? [] : r.bestDecision === 'either' ? ['all', 'keep'] : [r.bestDecision],
      result: null,
      method: r.openingValue !== undefined ? 'endgame' : 'unknown',
      components: restComponents,
      moveValues: new Map<string, number | null>([
        ['all', all],
        ...(r.choice ? [['keep', keep] as [string, number | null]] : []),
      ]),
    };
    if (all !== null && r.bestDecision) afterOpening.decision = { keep, all, best: r.bestDecision };
    const before = report.positions[report.positions.length - 1];
    // A 2-chain with a suffix was opened at an end (the controller could decline): another move than
    // the 2 of the position's openings (opened in its middle), valued and named as such.
    const endOpened = r.kind === 'chain' && r.size === 2 && r.choice;
    const move = endOpened ? endOpenedWords(r.component) : r.component;
    if (endOpened && before.moveValues && !before.moveValues.has(move)) {
      const v = r.openingValue === undefined ? null : -r.openingValue + 0;
      before.moveValues.set(move, v);
      // worth the position's value, it is one of its optimal moves too (found by an audit: listed
      // with that value among the move values, left out of the best moves)
      if (v !== null && before.exact && v === before.value && !before.best.includes(move)) before.best.push(move);
    }
    pushMove(
      report,
      {
        ply: afterOpening.ply,
        move,
        player: opener,
        completes: 0,
        loss: r.openerLoss ?? null,
        best: before.best,
        range: sm.step.nameRange,
        glyph: null,
        comment: sm.step.comment,
      },
      before,
      afterOpening,
    );
    report.positions.push(afterOpening);
    score = sm.scoreAfter ? [sm.scoreAfter[0], sm.scoreAfter[1]] : score;
    remaining -= r.size;
    const nextOpener =
      r.nextOpener === undefined ? controller : ((r.nextOpener === 0 ? eg.opener : 1 - eg.opener) as 0 | 1);
    const restValue = restAnalysis ? (restAnalysis.value === undefined ? null : -restAnalysis.value + 0) : 0;
    const afterDecision: PositionReport = {
      ply: report.positions.length,
      toMove: nextOpener,
      score: [score[0], score[1]],
      remaining,
      value: restValue,
      exact: restValue !== null,
      pending: false,
      lower: restValue,
      upper: restValue,
      controlledValue: restAnalysis && restAnalysis.controlledValue !== null ? -restAnalysis.controlledValue + 0 : null,
      best: restAnalysis?.value !== undefined ? restAnalysis.best.slice() : [],
      result: null,
      method: restValue === null ? 'unknown' : remaining === 0 ? 'over' : 'endgame',
      endgame: restAnalysis,
      components: restComponents,
      moveValues: restAnalysis
        ? new Map(
            restAnalysis.openings.map((o) => [o.component, o.valueAfter === undefined ? null : -o.valueAfter + 0]),
          )
        : undefined,
    };
    pushMove(
      report,
      {
        ply: afterDecision.ply,
        move: r.decision,
        player: controller,
        completes: r.decision === 'keep' ? r.size - (r.kind === 'loop' ? 4 : 2) : r.size,
        loss: r.controllerLoss ?? null,
        best: afterOpening.best,
        range: sm.step.decisionRange ?? sm.step.range,
        glyph: null,
        comment: null,
      },
      afterOpening,
      afterDecision,
    );
    report.positions.push(afterDecision);
  });
  return report;
}

function remainingAfter(
  all: { kind: 'chain' | 'loop'; size: number }[],
  opened: { kind: 'chain' | 'loop'; size: number }[],
) {
  const left = all.slice();
  for (const c of opened) {
    const i = left.findIndex((x) => x.kind === c.kind && x.size === c.size);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}
