/**
 * Public API of the endgame engine: abstract endgames of isolated chains and loops, and their
 * extraction from board positions. Pure TypeScript, no editor types.
 *
 * Abstract endgames (v = controller's margin, the papers' v(G); valueForOpener = -v):
 *   analyzeEndgame(components, { method?, maxStates? }) -> EndgameAnalysis
 *   evaluatePlay(components, 'play text' | PlayStep[], options?) -> PlayEvaluation
 *   parseComponents(text) / parseComponentName / parsePlay / countsOf / formatCounts / countsKey
 *   closed form: statsOf, valueExplicit (Thm 4.1), valueProcedural (Thm 4.2), analyzeClosedForm,
 *                controlledValue, terminalBonus, coreOf, sigmaPow, phiPow, valueAfterOpening,
 *                controllerDecision
 *   recursion:   solveRecursion (dense table over all sub-multisets), recursionValue, stateCount
 * Boards (value for the player to move, remaining boxes):
 *   loonyEndgameValue(state) / loonyValueOfDrawn(geometry, drawn) -> number | undefined (solver leaf)
 *   analyzeBoardEndgame(state) -> BoardEndgameAnalysis (components, every line's value, best lines)
 *   extractComponents(state), loonyRejectionReason(geometry, drawn)
 */
export * from './components';
export * from './closedForm';
export * from './recursion';
export * from './analyzeEndgame';
export * from './fromBoard';
