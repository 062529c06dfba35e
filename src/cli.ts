#!/usr/bin/env node
/**
 * The `gengate` command. Before anything else is loaded, it turns off V8's allocation-site
 * pretenuring (see cli/no-pretenuring.ts) and keeps the shape of `process.nextTick`'s objects
 * alive (see cli/keep-tick-shape.ts); the commands are in `src/cli/run-cli.ts`.
 */
import { disablePretenuring } from './cli/no-pretenuring.js';
import { keepTickShape } from './cli/keep-tick-shape.js';

disablePretenuring();
keepTickShape();
await import('./cli/run-cli.js');
