import { mkdtempSync, readdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { LocalMediaStore } from './local-media-store.js';

describe('LocalMediaStore', () => {
  it('stores bytes under an unguessable name and serves them back with their type', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'media-'));
    const store = new LocalMediaStore(join(dir, 'nested'), 60_000);
    const name = await store.put(new TextEncoder().encode('png bytes'), 'image/png');
    expect(name).toMatch(/^[A-Za-z0-9]{32}\.png$/);
    const other = await store.put(new TextEncoder().encode('png bytes'), 'image/png');
    expect(other).not.toBe(name);
    const opened = await store.open(name);
    expect(opened?.mediaType).toBe('image/png');
    expect(opened?.size).toBe(9);
    expect(await text(opened!.body)).toBe('png bytes');
  });

  it('refuses names that are not its own, including path tricks', async () => {
    const store = new LocalMediaStore(mkdtempSync(join(tmpdir(), 'media-')), 60_000);
    expect(await store.open('../../etc/passwd')).toBeUndefined();
    expect(await store.open(`${'a'.repeat(32)}.exe`)).toBeUndefined();
    expect(await store.open(`${'a'.repeat(32)}.png`)).toBeUndefined();
    await expect(store.put(new Uint8Array(1), 'text/html')).rejects.toThrow(/unsupported/);
  });

  it('expires files after the retention and sweeps them away', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'media-'));
    const store = new LocalMediaStore(dir, 60_000);
    const old = await store.put(new Uint8Array([1]), 'image/png');
    const fresh = await store.put(new Uint8Array([2]), 'image/jpeg');
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(join(dir, old), twoMinutesAgo, twoMinutesAgo);
    expect(await store.open(old)).toBeUndefined();
    expect(await store.sweep()).toBe(1);
    expect(readdirSync(dir)).toEqual([fresh]);
  });
});
