/**
 * A search worker: runs the exact solver off the server's main thread, one job at a time, with a
 * transposition table kept across jobs (positions of one record are one game tree, so a job
 * starts where the previous attempts left off). Cancellation comes through a shared flag the
 * solver polls; budgets come with each job; each answer carries the thread's CPU time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { geometryOf } from './engine/board/geometry';
import { BoardState } from './engine/board/state';
import { createSolver, searchEvaluate } from './engine/analysis/evaluatePosition';
import { serializeEvaluation, type SearchJob, type WorkerMessage } from './search/messages';
import { cpuStopwatch } from './search/cpuTime';
import { solverThreads } from './solverThreads';
import { ThreadedSolver } from './engine/solver';

const cancel = new Int32Array(workerData.cancel as SharedArrayBuffer);
const solver = createSolver(
  typeof workerData.tableMb === 'number' ? workerData.tableMb : undefined,
  typeof workerData.solverThreads === 'number' && workerData.solverThreads > 1
    ? solverThreads(workerData.solverThreads)
    : undefined,
);

const helperBusyMs = () => (solver instanceof ThreadedSolver ? solver.helperBusyMs : 0);

parentPort!.on('message', (job: SearchJob) => {
  const post = (m: WorkerMessage) => parentPort!.postMessage(m);
  // this thread's CPU and the solver's helper threads' time (a budget counts every thread)
  const thread = cpuStopwatch();
  const busy0 = helperBusyMs();
  const cpu = () => thread() + (helperBusyMs() - busy0);
  try {
    const state = new BoardState(geometryOf(job.width, job.height));
    for (let l = 0; l < job.drawn.length; l++) if (job.drawn[l]) state.drawSilently(l);
    let lastProgress = Date.now();
    const cancelled = () => Atomics.load(cancel, 0) === job.id;
    const evaluation = searchEvaluate(solver, state, {
      nodeBudget: job.nodeBudget > 0 ? job.nodeBudget : undefined,
      timeBudgetMs: job.timeBudgetMs > 0 ? job.timeBudgetMs : undefined,
      nimBudget: job.nimBudget,
      lead: job.lead,
      known: job.known,
      shouldStop: cancelled,
      onProgress: (p) => {
        const now = Date.now();
        if (now - lastProgress < 250) return;
        lastProgress = now;
        post({ type: 'progress', id: job.id, key: job.key, nodes: p.nodes, lower: p.lower, upper: p.upper });
      },
    });
    const wasCancelled = cancelled();
    post({
      type: 'result',
      id: job.id,
      key: job.key,
      evaluation: serializeEvaluation(evaluation),
      cpuMs: cpu(),
      cancelled: wasCancelled,
      exhausted: evaluation.status !== 'exact' && !wasCancelled,
    });
  } catch (e) {
    post({ type: 'error', id: job.id, key: job.key, message: (e as Error).message, cpuMs: cpu() });
  }
});
