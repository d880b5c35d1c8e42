#!/usr/bin/env node
// Over stdio, the server runs in a second process with huge pages when that helps (server/src/relaunch.ts).
const here = () => require('../dist/server.js');
if (
  !process.argv.includes('--stdio') ||
  !require('../dist/relaunch.js').relaunchWithHugePages(process.argv.slice(2), here)
)
  here();
