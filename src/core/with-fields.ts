/**
 * `{ ...base, ...fields }` for the gateway's own objects on the request path. On Node 20 an
 * object literal that spreads one object and then adds properties takes V8's slow path (about
 * 1 µs a call, against about 0.15 µs for this). Not for objects parsed from client input: a
 * `"__proto__"` member would set the copy's prototype here, where a spread copies it as data.
 */
export function withFields<T extends object, F extends object>(base: T, fields: F): Omit<T, keyof F> & F {
  return Object.assign(Object.assign({}, base), fields) as Omit<T, keyof F> & F;
}
