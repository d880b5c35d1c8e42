// The layering rule of eslint.config.mjs (dab/layers) fails when the engine imports from the server,
// the client, the shared protocol or vscode, and lets the engine import itself and Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

const engineFile = 'server/src/engine/board/probe.ts';

async function layerErrors(code: string, filePath = engineFile): Promise<string[]> {
  const eslint = new ESLint({ cwd: process.cwd() });
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'dab/layers').map((m) => m.message);
}

test('the engine may not import the server, the client, the shared protocol or vscode', async () => {
  const forbidden = [
    "import * as vscode from 'vscode';",
    "import { createConnection } from 'vscode-languageserver/node';",
    "import { hover } from '../../features/hover';",
    "import { readSettings } from '../../settings';",
    "import { activate } from '../../../../client/src/extension';",
    "import { BoardViewRequest } from '../../../../shared/protocol';",
    "export type S = import('../../settings').DabSettings;",
  ];
  for (const line of forbidden) {
    const errors = await layerErrors(line);
    assert.equal(errors.length, 1, line);
    assert.match(errors[0], /^The engine layer may not import/);
  }
});

test('the engine may import itself and Node; the server may import the engine', async () => {
  assert.deepEqual(
    await layerErrors(
      "import { BoardState } from '../board/state';\nimport { nimstring } from '../nimstring';\nimport { Worker } from 'node:worker_threads';",
    ),
    [],
  );
  assert.deepEqual(
    await layerErrors("import { BoardState } from '../engine/board/state';", 'server/src/features/probe.ts'),
    [],
  );
  const clientErrors = await layerErrors(
    "import { hover } from '../../server/src/features/hover';",
    'client/src/probe.ts',
  );
  assert.equal(clientErrors.length, 1);
});
