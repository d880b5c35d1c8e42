#!/usr/bin/env node
require('../dist/cli.js').run(process.argv.slice(2));
