// ad hoc: the timeline of one record's default CLI schedule (no store): each prove / completeMoves call, its time and outcome
import { readFileSync } from 'node:fs';
import { readDab } from './server/src/engine/notation';
import { createSearchCache, proveDocument, type SearchCache } from './server/src/cli/search';
import { resultOf, scoreLead } from './server/src/engine/analysis/prove';
const seed = Number(process.env.SEED ?? 1);
const doc = readDab(readFileSync(`/tmp/rec/r${seed}.dab`, 'utf8'));
const states = doc.models[0].states;
const inner = createSearchCache({ timeBudgetMs: 5000 });
const T0 = Date.now();
const log = (s: string) => console.log(`${((Date.now() - T0) / 1000).toFixed(1).padStart(6)} ${s}`);
const cache: SearchCache = {
  ...inner,
  prove(s, b) {
    const t = Date.now();
    const e = inner.prove(s, b);
    const r = resultOf(e.lower, e.upper, scoreLead(s));
    log(`prove ply ${states.indexOf(s)} undrawn ${s.undrawnLines().length} ms ${b.ms} ${b.resultOnly ? 'R' : 'F'} took ${Date.now() - t} -> ${e.status} [${e.lower},${e.upper}] ${r ?? '-'}`);
    return e;
  },
  completeMoves(s, ms) {
    const t = Date.now();
    const e = inner.completeMoves(s, ms);
    log(`moves ply ${states.indexOf(s)} ms ${ms} took ${Date.now() - t} best ${e?.best.length}`);
    return e;
  },
};
const [p] = proveDocument(cache, doc, { positionBudgetMs: Number(process.env.B ?? 5000), recordBudgetMs: Number(process.env.RB ?? 25000) });
log(`firstResult ${p.firstResultPly} firstExact ${p.firstExactPly}`);
process.exit(0);
