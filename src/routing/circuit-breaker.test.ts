import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from './circuit-breaker.js';

describe('CircuitBreaker', () => {
  it('opens after the threshold of consecutive failures and stays open for the cooldown', () => {
    let now = 1000;
    const breaker = new CircuitBreaker(3, 500, () => now);
    breaker.failure('a');
    breaker.failure('a');
    expect(breaker.isOpen('a')).toBe(false);
    breaker.failure('a');
    expect(breaker.isOpen('a')).toBe(true);
    now = 1499;
    expect(breaker.isOpen('a')).toBe(true);
  });

  it('a success resets the count', () => {
    const breaker = new CircuitBreaker(2, 500, () => 0);
    breaker.failure('a');
    breaker.success('a');
    breaker.failure('a');
    expect(breaker.isOpen('a')).toBe(false);
  });

  it('after the cooldown lets exactly one trial through; its failure reopens, its success closes', () => {
    let now = 0;
    const breaker = new CircuitBreaker(1, 100, () => now);
    breaker.failure('a');
    now = 100;
    expect(breaker.isOpen('a')).toBe(false);
    breaker.beginAttempt('a');
    expect(breaker.isOpen('a')).toBe(true); // the trial is in flight: others stay away
    breaker.failure('a');
    expect(breaker.isOpen('a')).toBe(true);
    now = 200;
    breaker.beginAttempt('a');
    breaker.success('a');
    expect(breaker.isOpen('a')).toBe(false);
  });

  it('keeps channels apart', () => {
    const breaker = new CircuitBreaker(1, 100, () => 0);
    breaker.failure('a');
    expect(breaker.isOpen('b')).toBe(false);
  });

  it('names its state for display: closed, open, then half-open once the cooldown is over', () => {
    let now = 0;
    const breaker = new CircuitBreaker(2, 100, () => now);
    expect(breaker.state('a')).toBe('closed');
    breaker.failure('a');
    expect(breaker.state('a')).toBe('closed');
    breaker.failure('a');
    expect(breaker.state('a')).toBe('open');
    now = 100;
    expect(breaker.state('a')).toBe('half-open');
    breaker.beginAttempt('a');
    expect(breaker.state('a')).toBe('half-open');
    breaker.success('a');
    expect(breaker.state('a')).toBe('closed');
  });
});
