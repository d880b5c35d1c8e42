/** The `dab/importDbl` request: a `.dbl` file converted to a `.dab` entry, with its problems. */
import type { ImportDblParams, ImportDblResult } from '../../../shared/protocol';
import { dblToDab, readDbl } from '../engine/notation';
import { toLspRange } from './convert';

export function importDbl(p: ImportDblParams): ImportDblResult {
  const imp = readDbl(typeof p?.text === 'string' ? p.text : '');
  const out = dblToDab(imp, typeof p?.title === 'string' ? p.title : 'imported');
  const problems = imp.diagnostics.map((d) => ({
    severity: d.severity,
    range: toLspRange(d.range),
    code: d.code,
    message: d.message,
  }));
  return out ? { text: out.text, kind: out.kind, problems } : { problems };
}
