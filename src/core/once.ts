/** A function that computes its value on the first call and returns the same value afterwards (a throw is not remembered). */
export function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}
