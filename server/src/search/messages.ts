/** Messages between the language server and its search workers (structured-clone friendly). */
import type { Evaluation } from '../engine/analysis/evaluation';

export interface SearchJob {
  id: number;
  key: string;
  width: number;
  height: number;
  /** One byte per line, 1 = drawn. */
  drawn: Uint8Array;
  /** 0 = no limit. */
  nodeBudget: number;
  /** 0 = no limit. */
  timeBudgetMs: number;
  /** Nimstring regions to evaluate after the search (0: the position already has its Nimstring view). */
  nimBudget: number;
  /** The mover's score minus the other's, so the proof tests the thresholds that decide the result. */
  lead?: number;
  /** Bounds already proven (earlier attempts, the proof store): the proof starts from them. */
  known?: { lower: number; upper: number };
}

export type WorkerMessage =
  | {
      type: 'result';
      id: number;
      key: string;
      evaluation: SerializedEvaluation;
      /** CPU time of the worker thread for this job (wall time where the platform cannot tell). */
      cpuMs: number;
      /** The job was cancelled: the bounds are proven but the attempt did not run its budget. */
      cancelled: boolean;
      /** The search stopped at its node or time budget. */
      exhausted: boolean;
    }
  | { type: 'progress'; id: number; key: string; nodes: number; lower: number; upper: number }
  | { type: 'error'; id: number; key: string; message: string; cpuMs: number };

/** Evaluation with its Map flattened for postMessage. */
export type SerializedEvaluation = Omit<Evaluation, 'moveValues'> & { moveValues?: [number, number | null][] };

export function serializeEvaluation(e: Evaluation): SerializedEvaluation {
  return { ...e, moveValues: e.moveValues ? [...e.moveValues] : undefined };
}

export function deserializeEvaluation(e: SerializedEvaluation): Evaluation {
  return { ...e, moveValues: e.moveValues ? new Map(e.moveValues) : undefined };
}
