import { describe, expect, it } from 'vitest';
import type { AdmitRequest } from '../limits/contract.js';
import { DuplicateReservation } from '../limits/counter-rules.js';
import { MemoryCounterStore } from '../limits/memory-counter-store.js';
import type { IpcEndpoint, PrimaryMessage } from './cluster-messages.js';
import { IpcCounterStore } from './ipc-counter-store.js';
import { serveCounters } from './serve-counters.js';

/** Two workers' ends of the channel to one primary holding one store; messages go through JSON, as over IPC. */
function cluster(): { workers: IpcCounterStore[]; setConnected(value: boolean): void } {
  const shared = new MemoryCounterStore();
  let connected = true;
  const workers = [0, 1].map(() => {
    const listeners: Array<(message: PrimaryMessage) => void> = [];
    const endpoint: IpcEndpoint = {
      send(message) {
        const wire = JSON.parse(JSON.stringify(message));
        if (wire.gengate !== 'counters') return;
        void serveCounters(shared, wire).then((reply) => {
          if (reply) for (const listener of listeners) listener(JSON.parse(JSON.stringify(reply)));
        });
      },
      onMessage: (listener) => listeners.push(listener),
      get connected() {
        return connected;
      },
    };
    return new IpcCounterStore(endpoint);
  });
  return { workers, setConnected: (value) => (connected = value) };
}

const admit = (reservationId: string, now: number): AdmitRequest => ({
  reservationId,
  now,
  leaseMs: 60_000,
  holds: [{ type: 'rate', counter: 'lim:requests_per_minute:model::m', limit: 3, amount: 1, label: 'm' }],
});

describe('IpcCounterStore', () => {
  it('counts every worker against one limit held by the primary', async () => {
    const { workers } = cluster();
    const now = 1_700_000_000_000;
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await workers[i % 2].admit(admit(`r${i}`, now)));
    expect(results.map((r) => r.ok)).toEqual([true, true, true, false, false, false]);
  });

  it("keeps the caller's errors typed across the channel", async () => {
    const { workers } = cluster();
    await workers[0].admit(admit('same', 1_000));
    await expect(workers[1].admit(admit('same', 1_000))).rejects.toBeInstanceOf(DuplicateReservation);
    await expect(workers[0].admit({ ...admit('other', 1_000), leaseMs: -1 })).rejects.toBeInstanceOf(RangeError);
  });

  it('fails at once, and reports unhealthy, when the primary is gone', async () => {
    const { workers, setConnected } = cluster();
    setConnected(false);
    await expect(workers[0].admit(admit('r', 1_000))).rejects.toThrow('the primary process is gone');
    expect(await workers[0].health()).toEqual({ ok: false, detail: 'the primary process is gone' });
  });
});
