/**
 * What a `gengate start --workers N` primary and its workers say to each other over the cluster's
 * IPC channel. Every message carries `gengate` so nothing else on the channel is mistaken for one.
 */
import type { InvalidationTopic } from '../store/invalidation-bus.js';

/** A channel line of the start banner, as a worker reports it (the primary builds no registry). */
export interface BannerChannel {
  name: string;
  config: { provider: string };
  enabled: boolean;
  fallbackOnly?: boolean;
}

export type CounterMethod = 'admit' | 'settle' | 'release' | 'renew' | 'peek' | 'seedSpend' | 'resetSpend' | 'health';

export const COUNTER_METHODS: ReadonlySet<string> = new Set<CounterMethod>([
  'admit',
  'settle',
  'release',
  'renew',
  'peek',
  'seedSpend',
  'resetSpend',
  'health',
]);

/** Worker → primary. */
export type WorkerMessage =
  | { gengate: 'listening'; address: string; channels: BannerChannel[] }
  | { gengate: 'notice'; topic: InvalidationTopic }
  | { gengate: 'counters'; id: number; method: CounterMethod; args: unknown[] };

/** Primary → worker. */
export type PrimaryMessage =
  | { gengate: 'notice' }
  | { gengate: 'counters-reply'; id: number; ok: true; value: unknown }
  | { gengate: 'counters-reply'; id: number; ok: false; name: string; message: string }
  /** Stop accepting and drain, as on a first SIGTERM (a worker already draining carries on). */
  | { gengate: 'drain' }
  /** A second signal reached the primary: flush the journal and exit now. */
  | { gengate: 'exit-now' };

/** One end of the IPC channel (the worker's `process`, or a test double). */
export interface IpcEndpoint {
  send(message: WorkerMessage): void;
  onMessage(listener: (message: PrimaryMessage) => void): void;
  readonly connected: boolean;
}

export function isGengateMessage(message: unknown): message is { gengate: string } {
  return typeof message === 'object' && message !== null && typeof (message as { gengate?: unknown }).gengate === 'string';
}

/** The worker's end: its own process's channel to the primary. */
export function processEndpoint(): IpcEndpoint {
  return {
    send(message) {
      // A primary gone means this worker is exiting too; a lost message is then of no use to anyone.
      if (process.connected) process.send?.(message, undefined, {}, ignoreSendError);
    },
    onMessage(listener) {
      process.on('message', (message: unknown) => {
        if (isGengateMessage(message)) listener(message as PrimaryMessage);
      });
    },
    get connected() {
      return process.connected;
    },
  };
}

/** A message that could not go out because its channel just closed: the process at the other end is gone, which its own handling covers. */
export function ignoreSendError(): void {}
