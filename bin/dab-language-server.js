#!/usr/bin/env node
// Over stdio, the server runs in a second process with huge pages when that helps (server/src/relaunch.ts).
const USAGE = `usage: dab-language-server --stdio
  The dab language server (Language Server Protocol) for .dab files. An editor starts it and talks
  to it over standard input and output (--stdio; also --node-ipc, --socket=PORT or --pipe=NAME).
  The README's "Other editors" shows how to set it up in Neovim and Helix.`;
const args = process.argv.slice(2);
// as vscode-languageserver reads them: --socket=PORT or --socket PORT, the same for --pipe
const transport = args.some((a) => a === '--stdio' || a === '--node-ipc' || /^--(socket|pipe)(=|$)/.test(a));
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(USAGE + '\n');
} else if (args.includes('--version')) {
  process.stdout.write(require('../package.json').version + '\n');
} else if (!transport) {
  process.stderr.write(`dab-language-server: no transport given\n${USAGE}\n`);
  process.exitCode = 2;
} else {
  const here = () => require('../dist/server.js');
  if (!args.includes('--stdio') || !require('../dist/relaunch.js').relaunchWithHugePages(args, here)) here();
}
