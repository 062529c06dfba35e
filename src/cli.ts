#!/usr/bin/env node
/**
 * The `gengate` command. Before anything else is loaded, it keeps the shape of
 * `process.nextTick`'s objects alive (see cli/keep-tick-shape.ts); the commands are in
 * `src/cli/run-cli.ts`.
 */
import { keepTickShape } from './cli/keep-tick-shape.js';

keepTickShape();
await import('./cli/run-cli.js');
