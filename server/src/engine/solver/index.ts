/**
 * Exact solver for Dots-and-Boxes positions (any board up to 12x12; practical on small boards
 * and late positions). Values are for the player to move: net boxes of the remaining boxes.
 */
export { Solver, solve, candidateMoves } from './solver';
export { BATCH_TABLE_MB, DEFAULT_TABLE_MB, MAX_TABLE_MB } from './types';
export type { SolveOptions, SolveResult, SolveProgress, SolverConfig, LeafEvaluator, WindowResult } from './types';
export { canonicalPosition, lineToCanonical, lineFromCanonical, lineSymmetries } from './symmetry';
export type { CanonicalPosition } from './symmetry';
export { bruteForce, BRUTE_FORCE_MAX_UNDRAWN } from './brute';
export type { BruteForceResult } from './brute';
export { ThreadedSolver, type ThreadOptions } from './threads';
