/** The small vocabulary simulated prose is drawn from: plain, neutral, ASCII. */
export const SANDBOX_WORDS: readonly string[] = [
  'answer', 'approach', 'balance', 'bridge', 'careful', 'channel', 'clear', 'cloud', 'common',
  'context', 'current', 'data', 'detail', 'direct', 'early', 'example', 'field', 'final',
  'first', 'focus', 'format', 'forward', 'gateway', 'general', 'gentle', 'good', 'green',
  'group', 'guide', 'harbor', 'helpful', 'honest', 'idea', 'image', 'input', 'journey',
  'key', 'kind', 'language', 'layer', 'light', 'likely', 'list', 'local', 'logic', 'main',
  'measure', 'method', 'model', 'moment', 'morning', 'native', 'network', 'next', 'note',
  'number', 'ocean', 'offline', 'open', 'order', 'output', 'pattern', 'plain', 'point',
  'practical', 'prompt', 'quick', 'quiet', 'range', 'reason', 'record', 'request', 'result',
  'river', 'route', 'sample', 'shape', 'short', 'signal', 'simple', 'small', 'source',
  'steady', 'step', 'stone', 'stream', 'summary', 'system', 'table', 'test', 'text', 'token',
  'topic', 'useful', 'valley', 'value', 'version', 'view', 'window', 'winter', 'word',
  'working', 'yellow',
];

/** Joiners that make the prose read like prose. */
export const SANDBOX_LINKS: readonly string[] = [
  'and', 'the', 'with', 'for', 'of', 'a', 'in', 'to', 'on', 'by', 'is', 'from',
];
