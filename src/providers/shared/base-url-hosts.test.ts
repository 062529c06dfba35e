import { describe, expect, it } from 'vitest';
import { classifyAddress, classifyHost, hostClassRefusal } from './base-url-hosts.js';

describe('channel base URL hosts (finding 9)', () => {
  it.each([
    ['169.254.169.254', 'metadata'],
    ['169.254.0.1', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['FD00:EC2:0:0:0:0:0:254', 'metadata'],
    ['fe80::1', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.3.4', 'private'],
    ['192.168.1.20', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['fd12:3456::1', 'private'],
    ['::', 'private'],
    ['::ffff:10.0.0.5', 'private'],
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('tells hosts by name only for metadata and localhost names; others wait for their addresses', () => {
    expect(classifyHost('metadata.google.internal')).toBe('metadata');
    expect(classifyHost('METADATA.GOOGLE.INTERNAL.')).toBe('metadata');
    expect(classifyHost('metadata')).toBe('metadata');
    expect(classifyHost('localhost')).toBe('loopback');
    expect(classifyHost('models.localhost')).toBe('loopback');
    expect(classifyHost('[fd00:ec2::254]')).toBe('metadata');
    expect(classifyHost('api.openai.com')).toBeUndefined();
  });

  it('refuses metadata always, private networks unless allowed, never loopback or public', () => {
    expect(hostClassRefusal('metadata', true)).toMatch(/metadata/);
    expect(hostClassRefusal('private', false)).toMatch(/allowPrivateBaseUrls/);
    expect(hostClassRefusal('private', true)).toBeUndefined();
    expect(hostClassRefusal('loopback', false)).toBeUndefined();
    expect(hostClassRefusal('public', false)).toBeUndefined();
    expect(hostClassRefusal(undefined, false)).toBeUndefined();
  });
});
