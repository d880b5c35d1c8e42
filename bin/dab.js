#!/usr/bin/env node
process.exitCode = require('../dist/cli.js').main(process.argv.slice(2));
