/** Worker thread entry: encodes the video it is given and posts the result back (buffers transferred). */
import { parentPort, workerData } from 'node:worker_threads';
import { encodeVideo, type VideoEncodeInput } from './encode-video.js';

const result = encodeVideo(workerData as VideoEncodeInput);
parentPort?.postMessage(result, [result.mp4.buffer as ArrayBuffer, result.thumbnailRgb.buffer as ArrayBuffer]);
