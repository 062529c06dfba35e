/**
 * What a sandbox image task produces, made at submit: the PNGs to store, the seed, describe's
 * text and the grid's buttons. One branch per operation; each checks what it needs of the
 * request. (Videos are made by `produceVideoResult`, outside the image decode slots.)
 */
import { invalidRequest } from '../../core/errors.js';
import type { TaskButton, TaskOperation, TaskRequest } from '../../core/task.js';
import type { TaskSubmitAttempt } from '../../providers/types.js';
import { renderLabelledPattern } from '../images/raster.js';
import { drawBlendGrid } from './blend-grid.js';
import { describeImage } from './describe-image.js';
import { chooseGenerateShape } from './generate-shape.js';
import { gridButtons, gridHash } from './grid-buttons.js';
import { upscaleQuadrant } from './grid-quadrant.js';
import { quadrantSeed } from './image-grid.js';
import { parseGridAction } from './parse-grid-action.js';
import { drawPatternGrid } from './pattern-grid.js';
import { readSandboxTaskRecord } from './sandbox-task-record.js';
import { imageDigest, seedText, taskSeed } from './task-seeds.js';
import { drawVariationGrid } from './variation-grid.js';

/** A file to store as a task output, with what the task record keeps about it. */
export interface ProducedFile {
  data: Uint8Array;
  mime: string;
  kind: 'image' | 'video';
  width?: number;
  height?: number;
  seconds?: number;
}

export interface ProducedTask {
  /** In output order. */
  files: ProducedFile[];
  seed?: string;
  text?: string;
  buttons?: TaskButton[];
  /** The first file is a 2×2 grid PNG that actions can act on. */
  grid: boolean;
}

function pngFile(png: Buffer): ProducedFile {
  return { data: png, mime: 'image/png', kind: 'image' };
}

function asGrid(png: Buffer, seed: number): ProducedTask {
  return { files: [pngFile(png)], seed: seedText(seed), buttons: gridButtons(gridHash(png)), grid: true };
}

async function imagine(request: TaskRequest): Promise<ProducedTask> {
  const seed = taskSeed(request.seed, ['imagine', request.model, request.prompt ?? '']);
  return asGrid(await drawPatternGrid(seed), seed);
}

async function blend(request: TaskRequest): Promise<ProducedTask> {
  const images = request.images ?? [];
  const seed = taskSeed(request.seed, ['blend', request.model, request.dimensions ?? 'SQUARE', images.map(imageDigest)]);
  return asGrid(await drawBlendGrid(images, request.dimensions, seed), seed);
}

async function describe(request: TaskRequest): Promise<ProducedTask> {
  const [image] = request.images ?? [];
  if (!image) throw invalidRequest('image: describe takes one image', 'image');
  return { files: [], text: await describeImage(image), grid: false };
}

async function act(request: TaskRequest, attempt: TaskSubmitAttempt): Promise<ProducedTask> {
  const action = parseGridAction(request.action?.customId);
  const { parent } = attempt;
  const gridRef = parent?.result?.media[0];
  if (!parent || !gridRef || gridRef.kind !== 'image' || readSandboxTaskRecord(parent.upstreamData)?.grid !== true) {
    throw invalidRequest('customId: the parent task has no image grid to act on', 'customId');
  }
  const grid = await attempt.loadMedia(gridRef);
  if (action.kind === 'upsample') {
    // An upscale keeps the grid's seed, as MJ's does.
    const seed = parent.result?.seed ?? seedText(taskSeed(undefined, ['upsample', parent.upstreamId, action.index]));
    return { files: [pngFile(await upscaleQuadrant(grid, action.index))], seed, grid: false };
  }
  if (action.kind === 'variation') {
    const seed = taskSeed(undefined, ['variation', parent.upstreamId, action.index, attempt.taskId]);
    return asGrid(await drawVariationGrid(grid, action.index, seed), seed);
  }
  const seed = taskSeed(undefined, ['reroll', parent.upstreamId, attempt.taskId]);
  return asGrid(await drawPatternGrid(seed), seed);
}

async function generate(request: TaskRequest, attempt: TaskSubmitAttempt): Promise<ProducedTask> {
  const { count, size } = chooseGenerateShape(request, attempt.warn?.bind(attempt));
  const seed = taskSeed(request.seed, ['generate', request.model, request.prompt ?? '', size, count]);
  const files: ProducedFile[] = [];
  // One picture at a time: up to 4 megapixels each.
  for (let i = 0; i < count; i++) files.push(pngFile(await renderLabelledPattern(size, i === 0 ? seed : quadrantSeed(seed, i))));
  return { files, seed: seedText(seed), grid: false };
}

export function produceTaskResult(operation: TaskOperation, request: TaskRequest, attempt: TaskSubmitAttempt): Promise<ProducedTask> {
  switch (operation) {
    case 'image.imagine':
      return imagine(request);
    case 'image.blend':
      return blend(request);
    case 'image.describe':
      return describe(request);
    case 'image.action':
      return act(request, attempt);
    case 'image.generate':
      return generate(request, attempt);
    default:
      throw invalidRequest(`the sandbox has no ${operation} tasks`);
  }
}
