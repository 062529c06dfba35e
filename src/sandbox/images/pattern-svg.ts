/**
 * The deterministic picture the sandbox "generates": a gradient with translucent shapes, all
 * drawn from a seed, as SVG for sharp to render. Different seeds give visibly different pictures.
 */
import type { ImageSize } from '../../core/image.js';
import { createPrng, type Prng } from '../shared/prng.js';

function colour(rng: Prng): string {
  return `hsl(${rng.int(0, 359)},${rng.int(45, 90)}%,${rng.int(30, 70)}%)`;
}

function shape(rng: Prng, { width, height }: ImageSize): string {
  const x = rng.int(0, width);
  const y = rng.int(0, height);
  const scale = Math.min(width, height);
  const fill = `fill="${colour(rng)}" fill-opacity="${(0.35 + rng.next() * 0.4).toFixed(2)}"`;
  if (rng.chance(0.5)) return `<circle cx="${x}" cy="${y}" r="${rng.int(Math.ceil(scale / 20), Math.ceil(scale / 4))}" ${fill}/>`;
  const w = rng.int(Math.ceil(scale / 10), Math.ceil(scale / 2));
  const h = rng.int(Math.ceil(scale / 10), Math.ceil(scale / 2));
  return `<rect x="${x - w / 2}" y="${y - h / 2}" width="${w}" height="${h}" rx="${rng.int(0, Math.ceil(scale / 30))}" transform="rotate(${rng.int(0, 89)} ${x} ${y})" ${fill}/>`;
}

export function patternSvg(size: ImageSize, seed: number): Buffer {
  const rng = createPrng(seed);
  const angle = rng.int(0, 359);
  const radians = (angle * Math.PI) / 180;
  const [x2, y2] = [50 + 50 * Math.cos(radians), 50 + 50 * Math.sin(radians)];
  const [x1, y1] = [100 - x2, 100 - y2];
  const shapes: string[] = [];
  const count = rng.int(6, 12);
  for (let i = 0; i < count; i++) shapes.push(shape(rng, size));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">` +
    `<defs><linearGradient id="g" x1="${x1.toFixed(1)}%" y1="${y1.toFixed(1)}%" x2="${x2.toFixed(1)}%" y2="${y2.toFixed(1)}%">` +
    `<stop offset="0" stop-color="${colour(rng)}"/><stop offset="1" stop-color="${colour(rng)}"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}</svg>`;
  return Buffer.from(svg);
}
