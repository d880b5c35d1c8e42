/** A helper thread of the threaded solver (engine/solver/threads.ts): bundled as dist/solverThread.js. */
import { runSolverHelper } from './engine/solver/threads';

runSolverHelper();
