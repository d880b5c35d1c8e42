/**
 * Exact value of a "simple loony endgame": a multiset of isolated chains and loops with no
 * capturable box, player to move must open a component. Memoized recursion on the multiset:
 *   f(empty) = 0
 *   f(G) = max over components C of -(opponent's best reply), opponent's replies, with r = f(G - C):
 *     chain of n = 1 or 2 boxes (a 2-chain opened in the middle): n + r
 *     chain of n >= 3: n + r (take all) or n - 4 - r (take all but two, decline two)
 *     loop of n >= 4:  n + r (take all) or n - 8 - r (take all but four, decline four)
 * (Berlekamp's canonical play in simple loony endgames; cross-checked against bruteForce in the tests.)
 */

const memo = new Map<string, number>();
const MEMO_LIMIT = 200000;

/** chains and loops: component lengths (any order; not modified). Value for the player to move. */
export function simpleEndgameValue(chains: number[], loops: number[]): number {
  const c = chains.slice().sort((a, b) => a - b);
  const l = loops.slice().sort((a, b) => a - b);
  return f(c, l);
}

function f(chains: number[], loops: number[]): number {
  if (chains.length === 0 && loops.length === 0) return 0;
  const key = chains.join(',') + '|' + loops.join(',');
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  let best = -Infinity;
  for (let i = 0; i < chains.length; i++) {
    if (i > 0 && chains[i] === chains[i - 1]) continue;
    const n = chains[i];
    const rest = chains.slice(0, i).concat(chains.slice(i + 1));
    const r = f(rest, loops);
    const reply = n <= 2 ? n + r : Math.max(n + r, n - 4 - r);
    if (-reply > best) best = -reply;
  }
  for (let i = 0; i < loops.length; i++) {
    if (i > 0 && loops[i] === loops[i - 1]) continue;
    const n = loops[i];
    const rest = loops.slice(0, i).concat(loops.slice(i + 1));
    const r = f(chains, rest);
    const reply = Math.max(n + r, n - 8 - r);
    if (-reply > best) best = -reply;
  }
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, best);
  return best;
}
