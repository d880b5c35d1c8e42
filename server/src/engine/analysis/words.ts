/** Values in words, so no reader has to know the sign convention. */

export function boxes(n: number): string {
  return `${n} box${Math.abs(n) === 1 ? '' : 'es'}`;
}

/**
 * "Alice (to move) wins the rest by 2", "Bob wins the rest by 1", "the rest is shared evenly".
 * `value` is for the player to move.
 */
export function restInWords(value: number, toMove: string, other: string): string {
  if (value > 0) return `${toMove} (to move) wins the rest by ${value}`;
  if (value < 0) return `${other} wins the rest by ${-value} against ${toMove} to move`;
  return `the rest is shared evenly`;
}

/** Final score predicted from the current score, the remaining boxes and the value for the player to move. */
export function predictedFinal(
  score: [number, number],
  remaining: number,
  value: number,
  toMove: 0 | 1,
): [number, number] {
  const mine = (remaining + value) / 2;
  const theirs = (remaining - value) / 2;
  const out: [number, number] = [score[0], score[1]];
  out[toMove] += mine;
  out[1 - toMove] += theirs;
  return out;
}

export function resultInWords(final: [number, number], players: [string, string]): string {
  if (final[0] === final[1]) return `a ${final[0]}-${final[1]} tie`;
  const w = final[0] > final[1] ? 0 : 1;
  return `${players[w]} wins ${final[w]}-${final[1 - w]}`;
}

/**
 * What playing a line means, for the board's hover and screen readers. `value` is the mover's value
 * after the line (boxes it completes plus the rest), `loss` the boxes it throws away against best play.
 *   "c1-c2: a best move — Alice wins the rest by 2"
 *   "c1-c2: throws away 3 boxes — Bob wins the rest by 1"
 *   "c1-c2: value not known yet"
 */
export function lineInWords(
  name: string,
  value: number | null,
  loss: number | null,
  mover: string,
  other: string,
): string {
  if (value === null) return `${name}: value not known yet`;
  const rest =
    value > 0
      ? `${mover} wins the rest by ${value}`
      : value < 0
        ? `${other} wins the rest by ${-value}`
        : 'the rest is a tie';
  if (loss === null) return `${name}: ${rest}`;
  return `${name}: ${loss === 0 ? 'a best move' : `throws away ${boxes(loss)}`} — ${rest}`;
}
