// Public API of the endgame engine (abstract chains/loops endgames and their board extraction).
export * from './components';
export * from './closedForm';
export * from './recursion';
export * from './analyze';
export * from './fromBoard';
