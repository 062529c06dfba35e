/**
 * sharp (libvips) adds about 25 MB of resident memory once loaded; only image operations need
 * it, so it is loaded on first use: callers write `(await loadSharp())(input)`.
 */
type SharpModule = typeof import('sharp').default;

let loaded: SharpModule | undefined;
let loading: Promise<SharpModule> | undefined;

export function loadSharp(): Promise<SharpModule> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= import('sharp').then((module) => (loaded = module.default));
  return loading;
}
