/**
 * sharp (libvips) adds about 25 MB of resident memory once loaded; only image operations need
 * it, so it is loaded on first use: callers write `(await loadSharp())(input)`. Loading it takes
 * the event loop tens of milliseconds (hundreds under load), so a gateway that will draw images
 * (the sandbox) loads it at start instead of in its first image request.
 */
type SharpModule = typeof import('sharp').default;

let loaded: SharpModule | undefined;
let loading: Promise<SharpModule> | undefined;

export function loadSharp(): Promise<SharpModule> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= import('sharp').then((module) => (loaded = module.default));
  return loading;
}
