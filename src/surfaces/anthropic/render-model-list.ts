/**
 * The gateway's models as Anthropic's `GET /v1/models` page (one page holding everything).
 */
import type { ModelInfo } from '../../core/model-info.js';

interface AnthropicModelList {
  data: Array<{ type: 'model'; id: string; display_name: string; created_at: string }>;
  has_more: false;
  first_id: string | null;
  last_id: string | null;
}

/** Unix seconds as RFC 3339 without fractional seconds, like Anthropic's `created_at`. */
function rfc3339(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function renderAnthropicModelList(models: ModelInfo[]): AnthropicModelList {
  const data = models.map((model) => ({
    type: 'model' as const,
    id: model.id,
    display_name: model.displayName,
    created_at: rfc3339(model.created),
  }));
  return {
    data,
    has_more: false,
    first_id: data.length > 0 ? data[0].id : null,
    last_id: data.length > 0 ? data[data.length - 1].id : null,
  };
}
