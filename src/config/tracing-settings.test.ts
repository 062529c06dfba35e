/** The `tracing:` section of gengate.yaml: content off unless asked, and its bounds checked. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVIDER_DESCRIPTORS } from '../providers/registry.js';
import { loadConfig } from './load-config.js';

function load(yaml: string) {
  const dir = mkdtempSync(join(tmpdir(), 'gengate-config-'));
  const path = join(dir, 'gengate.yaml');
  writeFileSync(path, yaml);
  return loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: path });
}

describe('tracing settings', () => {
  it('records no content unless the file says so', () => {
    expect(loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {} }).tracing).toEqual({ captureContent: false, contentMaxChars: 4096 });
    expect(load('tracing:\n  captureContent: true\n  contentMaxChars: 100\n').tracing).toEqual({ captureContent: true, contentMaxChars: 100 });
  });

  it.each([
    ['tracing:\n  captureContent: "yes"\n', /tracing.captureContent must be true or false/],
    ['tracing:\n  contentMaxChars: 0\n', /tracing.contentMaxChars must be a whole number from 1 to 1000000/],
    ['tracing:\n  contentMaxChars: 1.5\n', /tracing.contentMaxChars/],
    ['tracing:\n  capture: true\n', /tracing.capture is not a setting \(captureContent, contentMaxChars\)/],
  ])('refuses %j', (yaml, message) => {
    expect(() => load(yaml)).toThrow(message);
  });
});
