/**
 * Turns off V8's allocation-site pretenuring for the gateway process, before the application's
 * modules are loaded.
 *
 * Why: V8 watches, at each young-generation collection, how many objects of each allocation
 * site survived; a site whose objects mostly survive is switched, for the rest of the process,
 * to allocating straight into the old generation. A gateway's objects live for one request, but
 * a collection that comes while many requests are in flight (a burst, the start) sees most of
 * them alive, and the request path's sites get tenured: from then on every request's objects
 * (sockets' state, streams, promises, the call's own) go to the old generation, which grows by
 * about 15 KB a request and is reclaimed only by full, concurrent mark-and-sweep collections.
 * Measured (docs/performance-notes.md): a relayed stream at one connection cost about 15 % more CPU
 * that way, in some starts and not in others. Without pretenuring those objects die young, as
 * they should. `node --allocation-site-pretenuring` keeps V8's default (Node does not take V8
 * flags of this kind from NODE_OPTIONS).
 */
import { setFlagsFromString } from 'node:v8';

const FLAG = '--allocation-site-pretenuring';

/** Call once, first thing; does nothing (and says so) when node's command line asked for pretenuring. */
export function disablePretenuring(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.includes(FLAG)) return false;
  setFlagsFromString('--no-allocation-site-pretenuring');
  return true;
}
