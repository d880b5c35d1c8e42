/**
 * A process that holds the store's lock in one long write transaction, for the journal test: it
 * writes rows until SQLite has spilled changed pages into the database file (so only the journal
 * holds what they were), prints `spilled`, and waits to be killed. Usage: node --import tsx
 * bigTransaction.ts STORE
 */
import { statSync } from 'node:fs';
import { StoreFile } from '../../server/src/store/database';

const path = process.argv[2];
const { db } = StoreFile.open(path);
if (!db) process.exit(3);
const before = statSync(path).size;
const wait = new Int32Array(new SharedArrayBuffer(4));
db.write(() =>
  db.read((sql) => {
    for (let i = 0; ; i++) {
      sql.run('INSERT INTO meta VALUES (?, ?)', [`filler-${i}`, 'x'.repeat(2000)]);
      sql.run("UPDATE meta SET value = ? WHERE name = 'format'", [`${i}`]);
      if (i % 100 === 0 && statSync(path).size > before) {
        process.stdout.write('spilled\n');
        Atomics.wait(wait, 0, 0, 120_000);
        process.exit(4);
      }
    }
  }),
);
