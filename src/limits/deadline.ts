/**
 * A deadline on a promise: it settles by `ms` or rejects with `DeadlineExceeded`. The work itself
 * is not cancelled (a Redis command already sent may still apply); its late outcome is dropped.
 */
export class DeadlineExceeded extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'DeadlineExceeded';
  }
}

export function withDeadline<T>(work: () => Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DeadlineExceeded(ms)), ms);
    let started: Promise<T>;
    try {
      started = work();
    } catch (error) {
      clearTimeout(timer);
      reject(error);
      return;
    }
    started.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
