/**
 * Replicate's `webhook` and `webhook_events_filter`. The gateway itself delivers the webhook
 * (signed, retried) when the task finishes: the `completed` event. A filter that leaves out
 * `completed` asks only for events the gateway does not send, so no webhook is registered.
 */
import { describeValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import { optionalString, requireArray } from '../../core/validate.js';

const EVENTS = ['start', 'output', 'logs', 'completed'] as const;

export function parseWebhook(webhookValue: unknown, filterValue: unknown, checkCallbackUrl: (url: string, param: string) => void): { url: string } | undefined {
  const url = optionalString(webhookValue, 'webhook');
  const events = parseEventsFilter(filterValue);
  if (url === undefined) return undefined;
  checkCallbackUrl(url, 'webhook');
  if (events !== undefined && !events.includes('completed')) return undefined;
  return { url };
}

function parseEventsFilter(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = requireArray(value, 'webhook_events_filter');
  if (list.length > EVENTS.length) throw invalidRequest(`webhook_events_filter: at most ${EVENTS.length} events, got ${list.length}`, 'webhook_events_filter');
  return list.map((event, i) => {
    if (typeof event !== 'string' || !(EVENTS as readonly string[]).includes(event)) {
      const param = `webhook_events_filter[${i}]`;
      throw invalidRequest(`${param}: must be one of ${EVENTS.map((e) => `"${e}"`).join(', ')}, got ${describeValue(event)}`, param);
    }
    return event;
  });
}
