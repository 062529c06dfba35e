/**
 * The canonical asynchronous task: what every task family (imgtask, imagegen1, video) asks of
 * the task engine, and what a task provider answers. Plain data, no I/O; each surface maps the
 * canonical status to its own words and each provider maps every vendor state to these.
 */
import type { ImageInput } from './image.js';

export type TaskStatus = 'queued' | 'submitted' | 'running' | 'succeeded' | 'failed' | 'canceled';

export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled';
}

/** What a task asks for; the catalog prices each per task (images) or per second (video). */
export type TaskOperation = 'image.imagine' | 'image.blend' | 'image.describe' | 'image.action' | 'image.generate' | 'video.generate';

/**
 * The surface a task was created through (a task family's name in the surface registry): it
 * decides the id's look and the answers' shapes.
 */
export type TaskSurface = string;

/** What a reference image is for, in a video request (Ark's roles; other vendors take a first frame). */
export type VideoImageRole = 'first_frame' | 'last_frame' | 'reference_image';

export type BlendDimensions = 'PORTRAIT' | 'SQUARE' | 'LANDSCAPE';

/** An image-task follow-up button (`MJ::JOB::upsample::1::<hash>` and the like). */
export interface TaskButton {
  customId: string;
  label: string;
  emoji?: string;
  type: number;
  style: number;
}

/**
 * The canonical request. `images` are bytes checked by the surface; they go to the provider at
 * submit and are never stored in the task row (a task whose submit did not complete is failed,
 * not resubmitted, so nothing needs them later).
 */
export interface TaskRequest {
  /** The public model id. */
  model: string;
  prompt?: string;
  images?: ImageInput[];
  /** Blend: the output's shape. */
  dimensions?: BlendDimensions;
  /** Action: the parent task's follow-up button, as the parent's record lists it. */
  action?: { customId: string };
  width?: number;
  height?: number;
  /** Images wanted (imagegen1 `num_outputs`). */
  count?: number;
  seed?: number;
  /** Video: what each of `images` is for (same order); absent means a first frame. */
  imageRoles?: VideoImageRole[];
  /** Video: seconds, aspect ratio such as `16:9`, resolution such as `720p`. */
  seconds?: number;
  aspectRatio?: string;
  resolution?: string;
  /** Family-specific extras the provider may relay (kept in the task row, so JSON-safe and bounded). */
  options?: Record<string, unknown>;
}

/** The request as the task row keeps it: no image bytes (their count instead), and the base of the links handed out. */
export type StoredTaskRequest = Omit<TaskRequest, 'images'> & {
  imageCount?: number;
  /** `https://host` the client reached, for result links in lookups and webhooks. */
  publicBaseUrl?: string;
  /** The W3C trace context of the submit's span, when traces were on: polls and the finish link to it. */
  traceparent?: string;
};

/** A stored result file (in the gateway's media store). */
export interface MediaRef {
  /** Media store name (`<id>.<ext>`). */
  mediaId: string;
  kind: 'image' | 'video';
  mime: string;
  bytes: number;
  /** Hex SHA-256 of the file, where the gateway hashed it (downloads; the ETag of the download route). */
  sha256?: string;
  width?: number;
  height?: number;
  seconds?: number;
}

export interface TaskResult {
  media: MediaRef[];
  seed?: string;
  /** Describe's answer, or a vendor's revised prompt. */
  text?: string;
  buttons?: TaskButton[];
}

export interface TaskError {
  /** Machine-readable, e.g. `upstream_failed`, `timeout`, `submit_interrupted`, `content_policy`. */
  code: string;
  /** Kept from the vendor when it gave one; never names the upstream host or a credential. */
  message: string;
}

/** A task as the engine and the surfaces see it. Times are Unix milliseconds. */
export interface Task {
  id: string;
  /** The key that created it; every lookup is owner-only. */
  owner: string;
  surface: TaskSurface;
  operation: TaskOperation;
  /** The public model id. */
  model: string;
  request: StoredTaskRequest;
  /** The task this one acts on (image actions). */
  parentId?: string;
  channel?: string;
  provider?: string;
  upstreamModel?: string;
  upstreamId?: string;
  status: TaskStatus;
  /** The vendor's own word for the state, as last seen. */
  vendorStatus?: string;
  /** 0–1. */
  progress: number;
  result?: TaskResult;
  error?: TaskError;
  /** Reserved at submit, in nUSD (`core/money.ts`); settled on success, refunded otherwise. */
  priceNusd: number;
  callback?: { url: string; state?: string };
  createdAt: number;
  submittedAt?: number;
  startedAt?: number;
  finishedAt?: number;
  updatedAt: number;
}

/** What a provider's `poll` saw; every vendor state maps to one of these. */
export interface TaskObservation {
  /** `unknown`: the vendor answered a state the provider does not know (logged, polled on until the deadline). */
  status: 'submitted' | 'running' | 'succeeded' | 'failed' | 'canceled' | 'unknown';
  vendorStatus: string;
  progress?: number;
  /** On success: the files to copy into the media store. */
  outputs?: TaskOutput[];
  seed?: string;
  text?: string;
  buttons?: TaskButton[];
  error?: TaskError;
  /** What the vendor reports it used, where it does (video seconds, Ark's tokens). */
  usage?: { seconds?: number; totalTokens?: number };
}

/**
 * A result file: a vendor URL the gateway downloads (with the same guards as client URLs), or
 * a file the provider already put in the media store (the sandbox makes its outputs at submit).
 */
export type TaskOutput = { url: string; kind: 'image' | 'video' } | { stored: MediaRef };

/**
 * A family's webhook body for a task as it is now, or undefined when the family does not send
 * this state (imgtask sends every change; the others only terminal states).
 */
export type TaskNotifier = (task: Task, mediaUrl: (mediaId: string) => string) => string | undefined;

/** What a task family's surface gives the task engine: its webhook bodies and the look of its ids. */
export interface TaskFamily {
  notifier: TaskNotifier;
  /** A new public task id: unguessable, never the upstream's id, shaped like the family's own. */
  newId(): string;
}
