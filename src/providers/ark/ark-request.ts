/**
 * Where Ark's task routes are and what every call carries. The base URL is the host
 * (`https://ark.cn-beijing.volces.com`, BytePlus `https://ark.ap-southeast.bytepluses.com`); one
 * that already ends in `/api/v3`, as Ark's SDKs are configured, is taken as it is.
 */
import { upstreamIdPathSegment } from '../shared/path-segment.js';
import type { ChannelConfig } from '../types.js';

export function arkTasksUrl(channel: ChannelConfig): string {
  const base = channel.baseUrl.replace(/\/+$/, '');
  return `${/\/api\/v3$/.test(base) ? base : `${base}/api/v3`}/contents/generations/tasks`;
}

export function arkTaskUrl(channel: ChannelConfig, upstreamId: string): string {
  return `${arkTasksUrl(channel)}/${upstreamIdPathSegment(upstreamId)}`;
}

/** The task list filtered to these ids, all on one page. */
export function arkTaskListUrl(channel: ChannelConfig, upstreamIds: readonly string[]): string {
  const query = new URLSearchParams({ page_num: '1', page_size: String(upstreamIds.length) });
  for (const id of upstreamIds) query.append('filter.task_ids', id);
  return `${arkTasksUrl(channel)}?${query}`;
}

export function arkHeaders(channel: ChannelConfig): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${channel.apiKey}`, 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(channel.headers)) headers[name.toLowerCase()] = value;
  return headers;
}
