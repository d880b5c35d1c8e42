// `npm run bench`: runs every bench/*.bench.ts (each default-exports an async function that prints
// its own figures: medians, node counts and ratios against a baseline run in the same process).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { relaunchWithHugePages } from '../server/src/relaunch';
import { hugePagesLine } from '../shared/hugePages';

const only = process.argv[2] ?? '';
const files = readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(only))
  .sort();
// as dab's CLI and server run: on 2 MiB pages where Linux gives them on request (shared/hugePages.ts)
const benches = async () => {
  console.log(hugePagesLine());
  for (const f of files) {
    console.log(`\n=== ${f} ===`);
    const mod = await import(pathToFileURL(join(__dirname, f)).href);
    const run = mod.default?.default ?? mod.default;
    await run();
  }
};
const here = () =>
  void benches().catch((e) => {
    console.error(e);
    process.exit(1);
  });
if (!relaunchWithHugePages(process.argv.slice(2), here)) here();
