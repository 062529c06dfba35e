/**
 * Every surface the gateway serves, in the order their routes register: the one list app.ts
 * reads, and from which it hands `http/` the error families and `tasks/` the task families
 * (neither imports a surface). A new dialect is one folder with an `index.ts` and one line here.
 */
import type { TaskFamily } from '../core/task.js';
import type { ErrorFamily } from '../http/error-family.js';
import { anthropicSurface } from './anthropic/index.js';
import { geminiSurface } from './gemini/index.js';
import { imagegen1Surface } from './imagegen1/index.js';
import { imagegen2Surface } from './imagegen2/index.js';
import { imgtaskSurface } from './imgtask/index.js';
import { sharedModelsSurface } from './models/index.js';
import { openaiVideosSurface } from './openai-videos/index.js';
import { openaiSurface } from './openai/index.js';
import { responsesSurface } from './responses/index.js';
import type { Surface } from './types.js';
import { videoGenerationsSurface } from './video-generations/index.js';
import { videogen1Surface } from './videogen1/index.js';
import { videogen2Surface } from './videogen2/index.js';
import { videogen3Surface } from './videogen3/index.js';

export const SURFACES: readonly Surface[] = [
  openaiSurface,
  responsesSurface,
  anthropicSurface,
  geminiSurface,
  imagegen2Surface,
  imgtaskSurface,
  imagegen1Surface,
  videogen1Surface,
  videogen2Surface,
  videoGenerationsSurface,
  videogen3Surface,
  openaiVideosSurface,
  sharedModelsSurface,
];

/** The family whose error shape every path no other family claims gets. */
export const FALLBACK_ERROR_FAMILY = openaiSurface.name;

/** The error families of the surfaces that have one, each named after its surface. */
export const SURFACE_ERROR_FAMILIES: readonly ErrorFamily[] = SURFACES.flatMap((surface) =>
  surface.errors ? [{ name: surface.name, ...surface.errors }] : [],
);

/** The task families by surface name, in registry order. */
export const TASK_FAMILIES: ReadonlyMap<string, TaskFamily> = new Map(
  SURFACES.flatMap((surface) => (surface.task ? [[surface.name, surface.task] as const] : [])),
);
