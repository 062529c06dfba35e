/** A page of videos as OpenAI lists them: `{object: "list", data, first_id, last_id, has_more}`. */
import type { OpenAIVideo } from './render-video.js';

interface OpenAIVideoList {
  object: 'list';
  data: OpenAIVideo[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

export function renderOpenAIVideoList(videos: OpenAIVideo[], hasMore: boolean): OpenAIVideoList {
  return { object: 'list', data: videos, first_id: videos[0]?.id ?? null, last_id: videos.at(-1)?.id ?? null, has_more: hasMore };
}
