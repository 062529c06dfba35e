/** A `GET /v1/files/retrieve` answer → the result's download URL (MiniMax signs it for a limited time). */
import { GatewayError } from '../../core/errors.js';
import { baseRespError, type MinimaxBaseResp } from './map-minimax-error.js';

interface MinimaxFileAnswer {
  file?: { file_id?: unknown; bytes?: unknown; filename?: unknown; download_url?: unknown } | null;
  base_resp?: MinimaxBaseResp;
}

const MAX_URL_CHARS = 4_096;

export function minimaxDownloadUrl(answer: MinimaxFileAnswer, secrets: readonly string[]): string {
  const refused = baseRespError(answer.base_resp, secrets);
  if (refused) throw refused;
  const url = answer.file?.download_url;
  if (typeof url !== 'string' || url.length > MAX_URL_CHARS || !/^https?:\/\//i.test(url)) {
    throw new GatewayError('upstream', 'MiniMax named the result file without a usable download URL', { retryable: true });
  }
  return url;
}
