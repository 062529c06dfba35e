import { describe, expect, it } from 'vitest';
import { TextCollector } from './text-collector.js';

describe('TextCollector', () => {
  it('gives back every piece in order, across batches and after reading it midway', () => {
    const collector = new TextCollector(1 << 20);
    const pieces = Array.from({ length: 100 }, (_, i) => `t${i} `);
    for (const piece of pieces.slice(0, 40)) collector.add(piece);
    expect(collector.text()).toBe(pieces.slice(0, 40).join(''));
    for (const piece of pieces.slice(40)) collector.add(piece);
    expect(collector.text()).toBe(pieces.join(''));
  });

  it('stops at the limit, cutting the piece that crosses it', () => {
    const collector = new TextCollector(10);
    for (const piece of ['abcd', 'efgh', 'ijkl', 'mnop']) collector.add(piece);
    expect(collector.text()).toBe('abcdefghij');
    collector.add('more');
    expect(collector.text()).toBe('abcdefghij');
  });

  it('starts empty and ignores empty pieces', () => {
    const collector = new TextCollector(5);
    expect(collector.text()).toBe('');
    collector.add('');
    collector.add('ab');
    expect(collector.text()).toBe('ab');
  });
});
