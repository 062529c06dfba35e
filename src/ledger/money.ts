/**
 * The ledger's name for gengate's unit of money: nUSD and its conversions live in
 * `core/money.ts`, where every floor (config, store, routing) can reach them.
 */
export * from '../core/money.js';
