/**
 * DESCRIBE: four numbered prompt suggestions in MJ's style, made from what the sandbox can
 * really measure of the image — its size, shape, brightness and dominant colours — after a note
 * saying that no model looked at it.
 */
import type { ImageInput } from '../../core/image.js';
import { invalidRequest } from '../../core/errors.js';
import { openImage } from '../../media/image-decoding.js';
import { createPrng } from '../shared/prng.js';
import { colourName } from './colour-names.js';

const DESCRIBE_NOTE = 'Simulated description (gengate sandbox): no model looked at this image; these lines come from its size and colours.';

/** Side of the thumbnail the colours are counted on. */
const SAMPLE_SIDE = 32;
const NUMBERS = ['1️⃣', '2️⃣', '3️⃣', '4️⃣'];

interface ImageFacts {
  width: number;
  height: number;
  /** Colour names, most frequent first, with their share of the picture. */
  colours: Array<{ name: string; share: number }>;
  /** Mean brightness 0–255. */
  brightness: number;
}

async function measure(image: ImageInput): Promise<ImageFacts> {
  const meta = await (await openImage(image.data)).metadata().catch(() => undefined);
  if (!meta?.width || !meta.height) throw invalidRequest('image: the image could not be decoded', 'image');
  const pixels = await (await openImage(image.data))
    .flatten({ background: '#ffffff' })
    .resize(SAMPLE_SIDE, SAMPLE_SIDE, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer()
    .catch(() => {
      throw invalidRequest('image: the image could not be decoded', 'image');
    });
  const counts = new Map<string, number>();
  let brightness = 0;
  const total = pixels.length / 3;
  for (let i = 0; i < pixels.length; i += 3) {
    const name = colourName(pixels[i], pixels[i + 1], pixels[i + 2]);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    brightness += (pixels[i] + pixels[i + 1] + pixels[i + 2]) / 3;
  }
  const colours = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name, count]) => ({ name, share: count / total }));
  return { width: meta.width, height: meta.height, colours, brightness: brightness / total };
}

function aspectRatio(width: number, height: number): string {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const d = gcd(width, height);
  const [w, h] = [width / d, height / d];
  return w <= 64 && h <= 64 ? `${w}:${h}` : `${(width / height).toFixed(2)}:1`;
}

function shape(width: number, height: number): string {
  if (width === height) return 'square';
  return width > height ? 'landscape' : 'portrait';
}

function lightWord(brightness: number): string {
  if (brightness < 70) return 'dark';
  if (brightness > 185) return 'bright';
  return 'softly lit';
}

function colourPhrase(colours: ImageFacts['colours']): string {
  const [main, second, third] = colours;
  if (!second || second.share < 0.1) return `${main.name} tones`;
  if (!third || third.share < 0.1) return `${main.name} and ${second.name} tones`;
  return `${main.name}, ${second.name} and ${third.name} tones`;
}

export async function describeImage(image: ImageInput): Promise<string> {
  const facts = await measure(image);
  const { width, height } = facts;
  const size = `${width}×${height}`;
  const ar = `--ar ${aspectRatio(width, height)}`;
  const main = facts.colours[0].name;
  const styles = ['flat colour study', 'abstract composition', 'minimalist poster', 'colour field painting', 'gradient texture'];
  const style = createPrng(width * 31 + height).pick(styles);
  const lines = [
    `A ${size} ${shape(width, height)} picture in ${colourPhrase(facts.colours)}, ${lightWord(facts.brightness)} ${ar}`,
    `${style[0].toUpperCase()}${style.slice(1)} dominated by ${main} (${Math.round(facts.colours[0].share * 100)}% of the frame), ${size} pixels ${ar}`,
    `A ${lightWord(facts.brightness)} ${shape(width, height)} scene with ${colourPhrase(facts.colours)}, clean edges, high detail ${ar}`,
    `${main[0].toUpperCase()}${main.slice(1)} mood, ${facts.colours.length} distinct colour areas, ${size} resolution ${ar}`,
  ];
  return `${DESCRIBE_NOTE}\n\n${lines.map((line, i) => `${NUMBERS[i]} ${line}`).join('\n\n')}`;
}
