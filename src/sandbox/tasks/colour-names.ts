/** Plain names for colours: the nearest of a small palette, by distance in RGB. */

const PALETTE: ReadonlyArray<{ name: string; rgb: readonly [number, number, number] }> = [
  { name: 'red', rgb: [220, 40, 40] },
  { name: 'orange', rgb: [240, 140, 30] },
  { name: 'yellow', rgb: [240, 220, 40] },
  { name: 'green', rgb: [50, 170, 60] },
  { name: 'teal', rgb: [30, 160, 160] },
  { name: 'blue', rgb: [40, 70, 220] },
  { name: 'purple', rgb: [130, 50, 180] },
  { name: 'pink', rgb: [240, 120, 180] },
  { name: 'brown', rgb: [130, 80, 40] },
  { name: 'black', rgb: [15, 15, 15] },
  { name: 'grey', rgb: [128, 128, 128] },
  { name: 'white', rgb: [240, 240, 240] },
];

export function colourName(r: number, g: number, b: number): string {
  let best = PALETTE[0];
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const entry of PALETTE) {
    const distance = (r - entry.rgb[0]) ** 2 + (g - entry.rgb[1]) ** 2 + (b - entry.rgb[2]) ** 2;
    if (distance < bestDistance) {
      best = entry;
      bestDistance = distance;
    }
  }
  return best.name;
}
