import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import { solve } from '../../server/src/engine/solver';
import { orderingRules, chainStructure } from '../../server/src/engine/nimstring/ordering';

function withUndrawn(w: number, h: number, undrawn: number[], toMove: 0 | 1 = 0): BoardState {
  const g = geometryOf(w, h);
  const s = new BoardState(g, toMove);
  const keep = new Set(undrawn);
  for (const l of g.allLines()) if (!keep.has(l)) s.drawSilently(l);
  return s;
}

test('the "Dots" guide, example 6: open the connected chain, then the loop, then the disconnected chain (10:5)', () => {
  const g = geometryOf(5, 3);
  const s = withUndrawn(
    5,
    3,
    [
      g.hLine(4, 3),
      g.vLine(1, 2),
      g.vLine(2, 2),
      g.vLine(3, 2),
      g.hLine(0, 2),
      g.hLine(1, 2),
      g.hLine(3, 2),
      g.hLine(4, 2),
      g.vLine(2, 1),
      g.vLine(3, 1),
      g.hLine(0, 1),
      g.hLine(4, 1),
      g.vLine(1, 0),
      g.vLine(2, 0),
      g.vLine(3, 0),
      g.hLine(3, 0),
      g.hLine(4, 0),
    ],
    1,
  );
  const r = orderingRules(s);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.match(r.rule, /exception/);
  const first = r.chains[r.first];
  assert.equal(first.boxes.length, 6);
  assert.equal(first.connected, true);
  assert.deepEqual(
    r.order.map((c) => [c.boxes.length, c.loop]),
    [
      [6, false],
      [6, true],
      [3, false],
    ],
  );
  // exact: B gets 5 of the 15 boxes, and every optimal move opens that chain
  const sol = solve(s, { moveValues: true });
  assert.equal(sol.value, -5);
  assert.ok(sol.best.length > 0 && sol.best.every((l) => first.lines.includes(l)));
});

test('the "Dots" guide: chains 3 + 4 and a 4-loop: Rules 2+3 open the loop first (5:6)', () => {
  const g = geometryOf(4, 4);
  const s = withUndrawn(4, 4, [
    g.vLine(0, 0),
    g.vLine(1, 0),
    g.vLine(2, 0),
    g.vLine(3, 0),
    g.vLine(4, 0), // 4-chain a1-d1
    g.vLine(1, 2),
    g.vLine(1, 3),
    g.hLine(0, 3),
    g.hLine(1, 3), // 4-loop a3 b3 a4 b4
    g.vLine(4, 1),
    g.hLine(3, 2),
    g.hLine(3, 3),
    g.hLine(3, 4), // 3-chain d2 d3 d4
  ]);
  const st = chainStructure(s);
  assert.equal(st.bad, undefined);
  assert.deepEqual(st.chains.map((c) => [c.boxes.length, c.loop, c.value]).sort(), [
    [3, false, 3],
    [4, false, 4],
    [4, true, 2],
  ]);
  const r = orderingRules(s);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(r.chains[r.first].loop, true);
  assert.deepEqual(
    r.order.map((c) => c.boxes.length),
    [4, 3, 4],
  );
  const sol = solve(s, { moveValues: true });
  assert.equal(sol.value, -1);
  assert.ok(sol.best.every((l) => r.chains[r.first].lines.includes(l)));
});

test('the rules refuse positions that are not opening positions', () => {
  const g = geometryOf(2, 2);
  const s = new BoardState(g);
  assert.equal(orderingRules(s).ok, false); // quiet moves left
  const t = withUndrawn(2, 1, [geometryOf(2, 1).vLine(2, 0)]);
  assert.equal(orderingRules(t).ok, false); // a capturable box
});
