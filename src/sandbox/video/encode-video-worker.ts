/** Worker thread entry: encodes each video it is sent and posts the result back (buffers transferred). */
import { parentPort } from 'node:worker_threads';
import { encodeVideo, type VideoEncodeInput } from './encode-video.js';

parentPort?.on('message', (input: VideoEncodeInput) => {
  const result = encodeVideo(input);
  parentPort?.postMessage(result, [result.mp4.buffer as ArrayBuffer, result.thumbnailRgb.buffer as ArrayBuffer]);
});
