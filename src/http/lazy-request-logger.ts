/**
 * The per-request logger, made only when a request logs something. Fastify gives every request
 * a pino child with the request id bound; with redaction on, pino runs the redaction over those
 * bindings for each child, a cost per request (≈ 2 % of a plain chat call's CPU) that most
 * requests, which log nothing at the configured level, need not pay.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
type Level = (typeof LEVELS)[number];
type LogMethod = (...args: unknown[]) => void;

export class LazyRequestLogger {
  private made?: FastifyBaseLogger;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindingsOfChild: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The real child logger, made on first use. */
  get real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindingsOfChild, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  declare fatal: LogMethod;
  declare error: LogMethod;
  declare warn: LogMethod;
  declare info: LogMethod;
  declare debug: LogMethod;
  declare trace: LogMethod;
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }

  bindings(): Bindings {
    return (this.real as unknown as Logger).bindings();
  }

  isLevelEnabled(level: string): boolean {
    return this.decider().isLevelEnabled(level);
  }

  /** Whose level applies: the parent's, until the child exists or has a level of its own. */
  private decider(): Logger {
    return (this.made ?? (this.options.level === undefined ? this.parent : this.real)) as unknown as Logger;
  }

  /** @internal What each level's method does. */
  log(level: Level, args: unknown[]): void {
    if (!this.decider().isLevelEnabled(level)) return;
    (this.real[level] as (...a: unknown[]) => void)(...args);
  }
}

for (const level of LEVELS) {
  Object.defineProperty(LazyRequestLogger.prototype, level, {
    value(this: LazyRequestLogger, ...args: unknown[]): void {
      this.log(level, args);
    },
  });
}

/** Fastify's `childLoggerFactory`: a request's logger that becomes a pino child when first used. */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
