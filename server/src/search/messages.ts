/** Messages between the language server and its search worker (structured-clone friendly). */
import type { Evaluation } from '../engine/analysis/evaluation';

export interface SearchJob {
  id: number;
  key: string;
  width: number;
  height: number;
  /** One byte per line, 1 = drawn. */
  drawn: Uint8Array;
  nodeBudget: number;
  timeBudgetMs: number;
  nimBudget: number;
}

export type WorkerMessage =
  | { type: 'result'; id: number; key: string; evaluation: SerializedEvaluation }
  | { type: 'progress'; id: number; key: string; nodes: number; lower: number; upper: number }
  | { type: 'error'; id: number; key: string; message: string };

/** Evaluation with its Map flattened for postMessage. */
export type SerializedEvaluation = Omit<Evaluation, 'moveValues'> & { moveValues?: [number, number | null][] };

export function serializeEvaluation(e: Evaluation): SerializedEvaluation {
  return { ...e, moveValues: e.moveValues ? [...e.moveValues] : undefined };
}

export function deserializeEvaluation(e: SerializedEvaluation): Evaluation {
  return { ...e, moveValues: e.moveValues ? new Map(e.moveValues) : undefined };
}
