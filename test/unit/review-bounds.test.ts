// The review with proven bounds only (tight search budgets): every bound, result, loss bound and
// flag checked against brute force. Nothing may be flagged that is not true.
import { test } from 'node:test';
import { toJson } from '../../server/src/cli/json';
import assert from 'node:assert/strict';
import { geometryOf, parseLine } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import { bruteForce } from '../../server/src/engine/solver';
import { analyzeText } from '../../server/src/engine/analysis/analyzeDocument';
import { createSolver, searchEvaluate } from '../../server/src/engine/analysis/evaluatePosition';
import { mulberry32 } from '../support/random';
import {
  moveVerdict,
  playLineTitle,
  positionAdvice,
  reviewSummary,
  valuePhrase,
} from '../../server/src/engine/phrasebook';
import { formatText, overMaxLoss } from '../../server/src/cli/text';
import { nimSummary } from '../../server/src/engine/analysis/nim';
import { nothingProven } from '../../server/src/engine/analysis/evaluation';
import { estimateStanding } from '../../server/src/engine/analysis/prove';

type R = 'win' | 'tie' | 'loss';

function lineOf(g: ReturnType<typeof geometryOf>, name: string): number {
  const p = parseLine(g, name);
  assert.ok(p.ok, name);
  return p.line;
}
const resultOf = (margin: number): R => (margin > 0 ? 'win' : margin < 0 ? 'loss' : 'tie');

/** A record: `setup` lines drawn silently, then moves by a careless player (captures, safe moves, now and then anything). */
function record(r: () => number, w: number, h: number, setupCount: number) {
  const g = geometryOf(w, h);
  const s = new BoardState(g);
  const setup: number[] = [];
  while (setup.length < setupCount) {
    const safe = s.undrawnLines().filter((l) => !g.boxesOfLine(l).some((b) => s.sidesDrawn(b) >= 2));
    if (safe.length === 0) break;
    const l = safe[Math.floor(r() * safe.length)];
    s.drawSilently(l);
    setup.push(l);
  }
  const moves: number[] = [];
  const careless = r() * 0.5;
  while (!s.isOver()) {
    const all = s.undrawnLines();
    const caps = all.filter((l) => g.boxesOfLine(l).some((b) => s.sidesDrawn(b) === 3));
    const safe = all.filter((l) => !g.boxesOfLine(l).some((b) => s.sidesDrawn(b) === 2));
    const pool = r() < careless ? all : caps.length ? caps : safe.length ? safe : all;
    const l = pool[Math.floor(r() * pool.length)];
    s.play(l);
    moves.push(l);
  }
  const text = [
    'game "bounds"',
    `  size ${w}x${h}`,
    setup.length ? `  lines ${setup.map((l) => g.lineName(l)).join(' ')}` : '',
    `  moves ${moves.map((l) => g.lineName(l)).join(' ')}`,
  ].join('\n');
  return { g, setup, moves, text };
}

test('review from proven bounds: bounds, results, loss bounds and flags hold against brute force (tight budgets)', () => {
  const r = mulberry32(80080);
  const solver = createSolver();
  const n = {
    positions: 0,
    moves: 0,
    flaggedUnknownLoss: 0,
    resultChangeUnknownMargin: 0,
    flagged: 0,
    fromPlayed: 0,
    fromPlayedUpper: 0,
    provenInstead: 0,
    better: 0,
    keepsResult: 0,
    afterLines: 0,
    standing: { optimal: 0, 'keeps-win': 0, unproven: 0 },
  };
  for (let k = 0; k < 160; k++) {
    const [w, h, setup] = (
      [
        [2, 2, 0],
        [3, 2, 0],
        [3, 3, 7],
        [3, 3, 9],
      ] as const
    )[k % 4];
    const rec = record(r, w, h, setup);
    if (r() < 0.3) solver.clear();
    const budgets = [1, 10, 50, 200, 1000, 100000];
    // the searches' own bounds, to count those the played moves tightened
    const searched = new Map<string, [number, number]>();
    const report = analyzeText(rec.text, {
      search: (st) => {
        const ev = searchEvaluate(solver, st, { nodeBudget: budgets[Math.floor(r() * budgets.length)] });
        searched.set(st.key(), [ev.lower, ev.upper]);
        return ev;
      },
    });
    const e = report.entries[0];
    const s = new BoardState(rec.g);
    for (const l of rec.setup) s.drawSilently(l);
    const truths: { v: number; mv: (number | null)[] }[] = [];
    for (let ply = 0; ply <= rec.moves.length; ply++) {
      const bf = bruteForce(s);
      truths.push({ v: bf.value, mv: bf.moveValues });
      const p = e.positions[ply];
      const label = `ply ${ply} of\n${rec.text}\n${JSON.stringify({ ...p, state: undefined, moveValues: undefined, nim: undefined })}`;
      assert.ok(p.lower! <= bf.value && bf.value <= p.upper!, `bounds exclude ${bf.value}: ${label}`);
      if (p.value !== null) assert.equal(p.value, bf.value, label);
      const own = searched.get(s.key());
      if (own && p.lower! > own[0]) n.fromPlayed++;
      if (own && p.upper! < own[1]) n.fromPlayedUpper++;
      const lead = p.score[p.toMove] - p.score[1 - p.toMove];
      if (p.result !== null) assert.equal(p.result, resultOf(lead + bf.value), `wrong result: ${label}`);
      if (p.best.length) assert.deepEqual(p.best, bf.best.map((l) => rec.g.lineName(l)).sort(), label);
      if (p.bestSoFar && p.bestSoFarLower !== undefined) {
        // the proven bound on the best move found so far, and what it is said to prove
        const mv = bf.moveValues[lineOf(rec.g, p.bestSoFar[0])]!;
        assert.ok(mv >= p.bestSoFarLower, `the move is worth ${mv}, proven at least ${p.bestSoFarLower}: ${label}`);
        const standing = estimateStanding(p);
        if (standing === 'optimal') assert.equal(mv, bf.value, `not optimal: ${label}`);
        if (standing === 'keeps-win') assert.ok(lead + mv > 0, `does not keep the win: ${label}`);
        n.standing[standing]++;
      }
      n.positions++;
      if (ply < rec.moves.length) s.play(rec.moves[ply]);
    }
    const flagged = new Map(
      report.diagnostics
        .filter((d) => d.code === 'mistake' || d.code === 'result-changing-mistake')
        .map((d) => [`${d.range.line}:${d.range.character}`, d]),
    );
    e.moves.forEach((m, i) => {
      const before = e.positions[i];
      const line = rec.moves[i];
      const trueLoss = truths[i].v - truths[i].mv[line]!;
      const lead = before.score[m.player] - before.score[1 - m.player];
      const trueBefore = resultOf(lead + truths[i].v),
        trueAfter = resultOf(lead + truths[i].mv[line]!);
      const label = `move ${i + 1} (${m.move}) of\n${rec.text}\n${JSON.stringify({ ...m, range: undefined })}, true loss ${trueLoss}`;
      if (m.loss !== null) assert.equal(m.loss, trueLoss, label);
      if (m.lossAtLeast !== null) assert.ok(m.lossAtLeast <= trueLoss && trueLoss <= m.lossAtMost!, label);
      if (m.resultBefore !== null) assert.equal(m.resultBefore, trueBefore, label);
      if (m.resultAfter !== null) assert.equal(m.resultAfter, trueAfter, label);
      if (m.changesResult) assert.notEqual(trueBefore, trueAfter, `false result change: ${label}`);
      // the verdict on a move whose loss is unknown: "keeps the result" only where it is true
      const verdict = moveVerdict(m, e.players);
      if (/keeps the result/.test(verdict)) {
        assert.equal(trueBefore, trueAfter, `does not keep the result: ${label}`);
        const still = { win: 'wins', tie: 'ties', loss: 'loses' }[trueBefore];
        assert.ok(verdict.includes(`(${e.players[m.player]} still ${still})`), `${verdict}: ${label}`);
        n.keepsResult++;
      }
      // said wherever both results are proven the same and nothing else is known of the loss
      const unvalued = m.loss === null && !m.lossAtLeast && m.lossAtMost !== 0;
      assert.equal(
        /keeps the result/.test(verdict),
        unvalued && m.resultBefore !== null && m.resultBefore === m.resultAfter,
        label,
      );
      if (m.provenInstead) {
        assert.ok(!m.provenInstead.moves.includes(m.move) && m.provenInstead.moves.length > 0, label);
        // a move that keeps the win instead is named only where the move played is proven to lose it
        if (m.provenInstead.standing === 'keeps-win') assert.ok(m.changesResult && trueAfter !== 'win', label);
        for (const name of m.provenInstead.moves) {
          const alt = truths[i].mv[lineOf(rec.g, name)]!;
          const { standing, atLeast, playedAtMost } = m.provenInstead;
          if (standing === 'optimal') assert.equal(alt, truths[i].v, `instead: not optimal: ${label}`);
          else if (standing === 'keeps-win') assert.ok(lead + alt > 0, `instead: no win: ${label}`);
          else {
            // proven better than the move played, with both figures true
            const playedValue = truths[i].mv[line]!;
            assert.ok(
              alt > playedValue && alt >= atLeast! && playedValue <= playedAtMost!,
              `instead: not better: ${label}`,
            );
            n.better++;
          }
        }
        n.provenInstead++;
      }
      const d = flagged.get(`${m.range.line}:${m.range.character}`);
      if (d) {
        n.flagged++;
        assert.ok(trueLoss >= 1, `false flag: ${label}`);
        if (d.code === 'result-changing-mistake')
          assert.notEqual(trueBefore, trueAfter, `false result change: ${label}`);
        const claimed = Number(/gives away (?:at least )?(\d+)/.exec(d.message)![1]);
        assert.ok(claimed <= trueLoss, `claims ${claimed}: ${label}`);
        if (m.loss === null) n.flaggedUnknownLoss++;
        if (d.code === 'result-changing-mistake' && m.marginBefore === null) n.resultChangeUnknownMargin++;
      }
      n.moves++;
    });
    // the text output: under a move, the unsolved position it leaves, with what is proven of it
    const text = formatText(report, 'x.dab').split('\n');
    e.moves.forEach((m, i) => {
      const after = e.positions[i + 1];
      if (i === e.moves.length - 1 || after.value !== null || after.lower! <= -after.remaining) return;
      const at = text.findIndex((l) => l.startsWith(`${String(m.ply).padStart(5)}. `));
      assert.match(text[at + 1], /^ +then .* to move: value unknown/, `${text[at]}\n${text[at + 1]}`);
      assert.match(text[at + 2], /Proven: /, text[at + 2]);
      n.afterLines++;
    });
  }
  console.log('review from bounds:', JSON.stringify(n));
  assert.ok(n.positions > 1500 && n.moves > 1300, JSON.stringify(n));
  // the budgets must exercise the bound-only paths
  assert.ok(n.flaggedUnknownLoss > 10 && n.resultChangeUnknownMargin > 5, JSON.stringify(n));
  assert.ok(n.fromPlayed > 20, `bounds from the played moves: ${JSON.stringify(n)}`);
  assert.ok(
    n.keepsResult > 5 && n.afterLines > 20,
    `moves that keep the result, positions shown: ${JSON.stringify(n)}`,
  );
  // proven moves where the optimal moves were not searched: exercised, not only possible
  assert.ok(n.standing.optimal > 20 && n.standing['keeps-win'] > 10 && n.provenInstead > 5, JSON.stringify(n));
});

test('summaries count proven loss bounds and result changes; --max-loss sees bounds; unowned boxes are named', () => {
  const r = mulberry32(4242);
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)];
  let bounded = 0,
    changes = 0;
  for (let k = 0; k < 300; k++) {
    const g = geometryOf(3, 3);
    const s = new BoardState(g);
    const setup: number[] = [];
    while (setup.length < 8) {
      const safe = s.undrawnLines().filter((l) => !g.boxesOfLine(l).some((b) => s.sidesDrawn(b) >= 2));
      if (!safe.length) break;
      const l = pick(safe);
      s.drawSilently(l);
      setup.push(l);
    }
    const moves: number[] = [];
    while (!s.isOver() && moves.length < 6) {
      const l = pick(s.undrawnLines());
      s.play(l);
      moves.push(l);
    }
    const text = `position "s"\n  size 3x3\n  lines ${setup.map((l) => g.lineName(l)).join(' ')}\n  moves ${moves.map((l) => g.lineName(l)).join(' ')}\n`;
    const rep = analyzeText(text, { search: (st) => searchEvaluate(createSolver(1), st, { nodeBudget: 30 }) });
    const e = rep.entries[0];
    // the summary adds up what the moves prove: exact losses and the lower bounds of the others
    for (const p of [0, 1] as const) {
      const mine = e.moves.filter((m) => m.player === p);
      const sum = mine.reduce((a, m) => a + (m.loss ?? m.lossAtLeast ?? 0), 0);
      assert.equal(e.summary.lost[p], sum, text);
      // a move whose loss is not known exactly makes the total a lower bound, bounded or not
      const atLeast = mine.some((m) => m.loss === null);
      assert.equal(e.summary.lostAtLeast[p], atLeast, text);
      if (mine.some((m) => m.loss === null && (m.lossAtLeast ?? 0) > 0)) bounded++;
      assert.match(
        reviewSummary(e),
        new RegExp(
          `${e.players[p]}'s (errors add up to |to )${!atLeast ? `${sum} box` : sum === 0 ? '0 boxes so far' : `at least ${sum} box`}`,
        ),
      );
    }
    const changing = e.moves.filter((m) => m.changesResult).length;
    assert.equal(e.summary.resultChanging, changing, text);
    if (e.moves.some((m) => m.changesResult && m.loss === null)) changes++;
    // --max-loss: a proven lower bound over the limit counts like an exact loss
    for (const m of e.moves) {
      const over = overMaxLoss(m, 3);
      const proven = m.loss ?? m.lossAtLeast;
      assert.equal(over !== null, proven !== null && proven > 3, text);
    }
  }
  assert.ok(bounded >= 10 && changes >= 5, `${bounded} bounded totals, ${changes} result changes with unknown margins`);
  // completed boxes with no owner are named beside the predicted final score
  const unowned = analyzeText('position\n  size 2x2\n  lines a1-b1 a1-a2 b1-b2 a2-b2 b1-c1 c1-c2\n  moves b2-c2\n', {
    search: (st) => searchEvaluate(createSolver(1), st, {}),
  });
  const p0 = unowned.entries[0].positions[0];
  assert.equal(p0.unowned, 1);
  assert.match(valuePhrase(p0, unowned.entries[0].players), /not counting 1 box with no owner/);
  // and at the end of the game too (found by an audit: "game over: 0-0" on a board of one unowned box)
  const ended = analyzeText('position\n  size 2x1\n  lines a1-b1 a1-a2 a2-b2 b1-b2\n  moves b1-c1 c1-c2 b2-c2\n');
  const over = ended.entries[0].positions.at(-1)!;
  assert.equal(over.remaining, 0);
  assert.match(formatText(ended, 'x.dab'), /game over: 1-0 \(not counting 1 box with no owner\)/);
  assert.equal(positionAdvice(ended.entries[0], over), 'Game over: 1-0 (not counting 1 box with no owner)');
  // and the JSON output's positions carry it, as docs/notation.md (section 8) says
  const json = JSON.parse(JSON.stringify(toJson(unowned, 'x')));
  assert.deepEqual(
    json.entries[0].positions.map((p: { unowned?: number }) => p.unowned),
    [1, 1],
  );
  // an endgame line with nothing valued is not called optimal
  const eg = analyzeText(
    'endgame\n  components 1*20 + 2*20 + 3*20 + 5*20 + 6*20 + 4l*20 + 6l*20 + 7*5\n  play 3:all 1 7:all 4l\n',
  );
  assert.ok(eg.entries[0].moves.every((m) => m.loss === null));
  assert.doesNotMatch(playLineTitle(eg.entries[0]), /^Optimal/);
  assert.match(playLineTitle(eg.entries[0]), /moves not valued/);
});

// Found by an audit: in a nested variation the Nimstring view stood at a fixed indent, left of its line.
test('text output: a position line continued (proven facts, the Nimstring view) is indented under its own line', () => {
  const text = 'game\n  size 5x5\n  moves a4-b4 d2-e2 (b6-c6 b5-c5 (a1-a2) c5-c6) e2-e3\n';
  // every position unknown, with its Nimstring view, as a search cut by its budget leaves it
  const report = analyzeText(text, { search: (s) => ({ ...nothingProven(s), nim: nimSummary(s, 50, false) }) });
  const lines = formatText(report, 'x.dab').split('\n');
  let continued = 0;
  lines.forEach((l, i) => {
    if (!/Nimstring view/.test(l)) return;
    const opener = lines[i - 1];
    assert.match(opener, /(start:|then) /, `${l}\nfollows ${opener}`);
    const indent = (s: string) => s.length - s.trimStart().length;
    assert.ok(indent(l) > indent(opener), `indented under its line:\n${opener}\n${l}`);
    continued++;
  });
  assert.ok(continued >= 3, `Nimstring views shown: ${continued}`);
});

// Found by an audit: a variation whose only move is illegal said "no boxes thrown away".
test('a variation with no legal move says so, not that no boxes were thrown away', () => {
  const report = analyzeText('game\n  size 1x1\n  moves a1-b1 a2-b2 a1-a2 b1-b2 (a1-a2)\n');
  const text = formatText(report, 'x.dab');
  assert.match(text, /\( variation instead of move 4: no legal move \(nothing to review\)/);
  assert.doesNotMatch(text, /no boxes thrown away/);
});
