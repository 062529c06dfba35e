/** The "simulated" label drawn on every sandbox picture, so that a person sees it is not a real generation. */

const SIMULATED_LABEL = 'gengate sandbox — simulated';

/** An SVG the size of the picture: a translucent band along the bottom with the label on it. */
export function simulatedLabelSvg(width: number, height: number): Buffer {
  // The label is ~15.5 font-sizes wide in a sans-serif face; keep it inside the width and a tenth of the height.
  const fontSize = Math.max(4, Math.min(height * 0.07, (width * 0.9) / 15.5));
  const band = Math.ceil(fontSize * 1.8);
  const baseline = height - Math.round((band - fontSize) / 2) - Math.round(fontSize * 0.2);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect x="0" y="${height - band}" width="${width}" height="${band}" fill="#000000" fill-opacity="0.55"/>` +
    `<text x="${Math.round(width / 2)}" y="${baseline}" text-anchor="middle" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" ` +
    `font-size="${fontSize.toFixed(1)}" fill="#ffffff">${SIMULATED_LABEL}</text></svg>`;
  return Buffer.from(svg);
}
