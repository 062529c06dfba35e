/**
 * Every route the gateway serves (from the surfaces' `routes.ts`, `src/http/` and `src/app.ts`),
 * with a small valid request for each, where its key goes, and the error family its answers
 * must use. A new route is one more entry here.
 */
import type { HostileImage } from './hostile-images.js';

export type Family = 'openai' | 'anthropic' | 'gemini' | 'imagegen2' | 'imagegen1' | 'imgtask' | 'videogen1' | 'videogen3' | 'admin' | 'none';
export type KeyPlace = 'bearer' | 'x-api-key' | 'x-goog-api-key' | 'query-key' | 'api-key' | 'token' | 'mj-api-secret' | 'none';

/** Puts an image into a body, the way the route's dialect carries one. */
export type ImageSlot = (body: Record<string, unknown>, image: HostileImage, encoding: ImageEncoding) => void;
export type ImageEncoding = 'base64' | 'data-url' | 'private-url' | 'bad-url';

export interface Route {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  family: Family;
  /** Where a client of this dialect sends its key (the first is the usual one). */
  keyPlaces: KeyPlace[];
  /** A small valid body; absent for GET routes. */
  body?: () => Record<string, unknown>;
  /** Sent as multipart/form-data rather than JSON. */
  multipart?: boolean;
  /** Where hostile images go, when the route takes images. */
  imageSlots?: ImageSlot[];
  /**
   * Valid string fields the small body leaves out that the gateway carries into a row, a header
   * or a URL (webhook URLs, end-user ids, metadata); added for the control-and-path attack.
   */
  optionalFields?: () => Record<string, unknown>;
}

/** A webhook receiver that never resolves (`.invalid` is reserved): the fuzz suite never reaches outside the machine. */
const HOOK_URL = 'http://hooks.invalid/fuzz';
const callbackField = () => ({ callback_url: HOOK_URL });

export function encodeImage(image: HostileImage, encoding: ImageEncoding): string {
  switch (encoding) {
    case 'base64':
      return image.bytes.toString('base64');
    case 'data-url':
      return `data:${image.mediaType};base64,${image.bytes.toString('base64')}`;
    case 'private-url':
      // Loopback and link-local only: the fuzz suite never makes the gateway reach outside the machine.
      return ['http://127.0.0.1:9/i.png', 'http://[::1]:9/i.png', 'http://169.254.169.254/latest', 'http://10.0.0.1/i.png', 'http://0.0.0.0:9/'][
        image.bytes.length % 5
      ];
    default:
      return ['ftp://127.0.0.1/i.png', 'data:image/png;base64', 'http://', 'http://127.0.0.1:99999/i.png', 'not a url'][image.bytes.length % 5];
  }
}

/** Channel base URLs that must always be refused (issue 23, finding 9). */
const METADATA_BASE_URLS = [
  'http://169.254.169.254/latest',
  'http://[fd00:ec2::254]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://metadata.google.internal/computeMetadata/v1',
  'http://METADATA.GOOGLE.INTERNAL./',
  'http://[fe80::1]:8080/v1',
  'http://100.100.100.200/',
  'http://2852039166/',
  'http://0xa9.0xfe.0xa9.0xfe/',
];

const chatMessages = () => [{ role: 'user', content: 'Say hello.' }];
const geminiContents = () => [{ role: 'user', parts: [{ text: 'Say hello.' }] }];

const openaiChatImage: ImageSlot = (body, image, encoding) => {
  body.messages = [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: encodeImage(image, encoding === 'base64' ? 'data-url' : encoding) } },
      ],
    },
  ];
};

const anthropicImage: ImageSlot = (body, image, encoding) => {
  const source =
    encoding === 'base64' || encoding === 'data-url'
      ? { type: 'base64', media_type: image.mediaType, data: encodeImage(image, encoding) }
      : { type: 'url', url: encodeImage(image, encoding) };
  body.messages = [
    {
      role: 'user',
      content: [
        { type: 'image', source },
        { type: 'text', text: 'What is this?' },
      ],
    },
  ];
};

const geminiImage: ImageSlot = (body, image, encoding) => {
  const part =
    encoding === 'base64' || encoding === 'data-url'
      ? { inlineData: { mimeType: image.mediaType, data: encodeImage(image, encoding) } }
      : { fileData: { mimeType: image.mediaType, fileUri: encodeImage(image, encoding) } };
  body.contents = [{ role: 'user', parts: [part, { text: 'What is this?' }] }];
};

const field =
  (name: string): ImageSlot =>
  (body, image, encoding) => {
    body[name] = encodeImage(image, encoding);
  };

/** A multipart file part (the multipart encoder sends HostileImage values as files). */
const filePart =
  (name: string): ImageSlot =>
  (body, image, encoding) => {
    body[name] = encoding === 'private-url' || encoding === 'bad-url' ? encodeImage(image, encoding) : image;
  };

const blendImages: ImageSlot = (body, image, encoding) => {
  body.images = [encodeImage(image, encoding), encodeImage(image, 'base64')];
};

/** imgtask takes data URLs in `base64Array` (2–5 for a blend). */
const imgtaskBlendImages: ImageSlot = (body, image, encoding) => {
  const first = encodeImage(image, encoding === 'base64' ? 'data-url' : encoding);
  body.base64Array = [first, encodeImage(image, 'data-url')];
};

const imgtaskDescribeImage: ImageSlot = (body, image, encoding) => {
  body.base64 = encodeImage(image, encoding === 'base64' ? 'data-url' : encoding);
};

const openaiEditJsonImage: ImageSlot = (body, image, encoding) => {
  body.images = [{ image_url: encodeImage(image, encoding === 'base64' ? 'data-url' : encoding) }];
};

const GEMINI_CHAT = 'textmodel-c-2.0-flash';
const IMAGEGEN1_MODEL = 'black-forest-labs/flux-schnell';
/** A well-formed image-task id no task has (lookups, seeds, actions and cancels answer 404 code 3). */
const IMGTASK_UNKNOWN_ID = '1234567890123456789';

/** A well-formed imagegen1 task id no task has (lookups and cancels answer 404). */
const IMAGEGEN1_UNKNOWN_ID = 'fuzzfuzzfuzzfuzzfuzzfuzz22';
const GEMINI_EMBED = 'text-embedding-004';
/** A well-formed video task id no task has (lookups and cancels answer 404). */
const VIDEO_UNKNOWN_ID = 'task_fuzzfuzzfuzzfuzzfuzzfuzz22';

/** A well-formed response id no response has (retrieve, delete, cancel, input items answer 404; a follow-up 400). */
const RESPONSE_UNKNOWN_ID = 'resp_0123456789abcdef0123456789abcdef0123456789abcdef';

/** Video routes take image URLs or `data:` URLs, not bare base64. */
const videogen2Image: ImageSlot = (body, image, encoding) => {
  body.image_url = encodeImage(image, encoding === 'base64' ? 'data-url' : encoding);
};

const videoContentImage: ImageSlot = (body, image, encoding) => {
  body.content = [
    { type: 'text', text: '[Image1] comes alive --duration 5' },
    { type: 'image_url', image_url: { url: encodeImage(image, encoding === 'base64' ? 'data-url' : encoding) }, role: 'first_frame' },
  ];
};

/** OpenAI's reference object in JSON (a multipart upload goes through `filePart('input_reference')`). */
const openaiVideoReference: ImageSlot = (body, image, encoding) => {
  body.input_reference = { image_url: encodeImage(image, encoding === 'base64' ? 'data-url' : encoding) };
};

const videoKeyframe: ImageSlot = (body, image, encoding) => {
  body.keyframes = { frame0: { type: 'image', url: encodeImage(image, encoding === 'base64' ? 'data-url' : encoding) } };
};

export const ROUTES: readonly Route[] = [
  {
    name: 'openai chat',
    method: 'POST',
    path: '/v1/chat/completions',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'textmodel-b-4o-mini', messages: chatMessages(), max_tokens: 16 }),
    imageSlots: [openaiChatImage],
    optionalFields: () => ({ user: 'fuzz-user', metadata: { purpose: 'fuzz' } }),
  },
  {
    name: 'openai chat stream',
    method: 'POST',
    path: '/v1/chat/completions',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'textmodel-a-haiku-4-5-20251001', messages: chatMessages(), max_tokens: 16, stream: true, stream_options: { include_usage: true } }),
  },
  {
    name: 'openai chat tools',
    method: 'POST',
    path: '/v1/chat/completions',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({
      model: 'textmodel-b-4o',
      messages: chatMessages(),
      max_tokens: 32,
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string', pattern: '^[A-Z][a-z]+$' }, days: { type: 'integer', minimum: 1 } },
              required: ['city'],
            },
          },
        },
      ],
      tool_choice: 'required',
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object', properties: { text: { type: 'string' } } } } },
    }),
  },
  {
    name: 'responses create',
    method: 'POST',
    path: '/v1/responses',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'textmodel-b-4o', input: 'Say hello.', max_output_tokens: 16 }),
    optionalFields: () => ({ user: 'fuzz-user', safety_identifier: 'fuzz-safety', metadata: { purpose: 'fuzz' }, instructions: 'Be brief.' }),
  },
  {
    name: 'responses create stream',
    method: 'POST',
    path: '/v1/responses',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'textmodel-a-haiku-4-5-20251001', input: 'Say hello.', max_output_tokens: 16, stream: true, store: false }),
  },
  {
    name: 'responses create items and tools',
    method: 'POST',
    path: '/v1/responses',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({
      model: 'textmodel-b-4o',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
        { type: 'reasoning', summary: [], encrypted_content: 'ggr1_forged' },
      ],
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
      tool_choice: 'auto',
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { text: { type: 'string' } } } } },
      include: ['reasoning.encrypted_content'],
      max_output_tokens: 32,
    }),
  },
  {
    name: 'responses create many items',
    method: 'POST',
    path: '/v1/responses',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({
      model: 'textmodel-b-4o',
      input: Array.from({ length: 3000 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` })),
      max_output_tokens: 8,
    }),
  },
  {
    name: 'responses create background',
    method: 'POST',
    path: '/v1/responses',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'textmodel-b-4o', input: 'Say hello.', max_output_tokens: 16, background: true }),
  },
  {
    name: 'responses create background stream',
    method: 'POST',
    path: '/v1/responses',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'textmodel-b-4o', input: 'Say hello.', max_output_tokens: 16, background: true, stream: true }),
  },
  {
    name: 'responses stream replay',
    method: 'GET',
    path: `/v1/responses/${RESPONSE_UNKNOWN_ID}?stream=true&starting_after=3`,
    family: 'openai',
    keyPlaces: ['bearer'],
  },
  {
    name: 'responses follow-up of an unknown response',
    method: 'POST',
    path: '/v1/responses',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'textmodel-b-4o', input: 'And then?', previous_response_id: RESPONSE_UNKNOWN_ID }),
  },
  {
    name: 'responses input tokens',
    method: 'POST',
    path: '/v1/responses/input_tokens',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'textmodel-b-4o', input: [{ role: 'user', content: 'Count me.' }], instructions: 'Be brief.' }),
  },
  {
    name: 'responses retrieve',
    method: 'GET',
    path: `/v1/responses/${RESPONSE_UNKNOWN_ID}?include[]=reasoning.encrypted_content`,
    family: 'openai',
    keyPlaces: ['bearer'],
  },
  { name: 'responses delete', method: 'DELETE', path: `/v1/responses/${RESPONSE_UNKNOWN_ID}`, family: 'openai', keyPlaces: ['bearer'] },
  { name: 'responses cancel', method: 'POST', path: `/v1/responses/${RESPONSE_UNKNOWN_ID}/cancel`, family: 'openai', keyPlaces: ['bearer'], body: () => ({}) },
  {
    name: 'responses input items',
    method: 'GET',
    path: `/v1/responses/${RESPONSE_UNKNOWN_ID}/input_items?limit=5&order=asc&after=msg_x`,
    family: 'openai',
    keyPlaces: ['bearer'],
  },
  {
    name: 'openai embeddings',
    method: 'POST',
    path: '/v1/embeddings',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'text-embedding-3-small', input: ['hello', 'world'] }),
    optionalFields: () => ({ user: 'fuzz-user' }),
  },
  {
    name: 'openai image generation',
    method: 'POST',
    path: '/v1/images/generations',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'imagegen1-schnell', prompt: 'a red square', n: 1, size: '256x256', response_format: 'b64_json' }),
  },
  {
    name: 'openai image edit (multipart)',
    method: 'POST',
    path: '/v1/images/edits',
    family: 'openai',
    keyPlaces: ['bearer'],
    multipart: true,
    body: () => ({ model: 'textmodel-b-image-1', prompt: 'make it blue', size: '256x256' }),
    imageSlots: [filePart('image'), filePart('mask')],
  },
  {
    name: 'openai image edit (JSON)',
    method: 'POST',
    path: '/v1/images/edits',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'textmodel-b-image-1', prompt: 'make it blue', size: '256x256' }),
    imageSlots: [openaiEditJsonImage],
  },
  { name: 'models list', method: 'GET', path: '/v1/models', family: 'openai', keyPlaces: ['bearer', 'x-api-key', 'x-goog-api-key', 'query-key'] },
  { name: 'model get', method: 'GET', path: '/v1/models/textmodel-b-4o', family: 'openai', keyPlaces: ['bearer', 'x-api-key', 'x-goog-api-key', 'query-key'] },
  {
    name: 'anthropic messages',
    method: 'POST',
    path: '/v1/messages',
    family: 'anthropic',
    keyPlaces: ['x-api-key', 'bearer'],
    body: () => ({ model: 'textmodel-a-haiku-4-5-20251001', max_tokens: 16, messages: chatMessages() }),
    imageSlots: [anthropicImage],
    optionalFields: () => ({ metadata: { user_id: 'fuzz-user' } }),
  },
  {
    name: 'anthropic messages stream',
    method: 'POST',
    path: '/v1/messages',
    family: 'anthropic',
    keyPlaces: ['x-api-key', 'bearer'],
    body: () => ({
      model: 'textmodel-b-4o-mini',
      max_tokens: 16,
      stream: true,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: chatMessages(),
      tools: [{ name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string', maxLength: 8 } } } }],
    }),
  },
  {
    name: 'anthropic count tokens',
    method: 'POST',
    path: '/v1/messages/count_tokens',
    family: 'anthropic',
    keyPlaces: ['x-api-key', 'bearer'],
    body: () => ({ model: 'textmodel-a-sonnet-4-20250514', messages: chatMessages() }),
    imageSlots: [anthropicImage],
  },
  {
    name: 'gemini generate',
    method: 'POST',
    path: `/v1beta/models/${GEMINI_CHAT}:generateContent`,
    family: 'gemini',
    keyPlaces: ['x-goog-api-key', 'query-key'],
    body: () => ({ contents: geminiContents(), generationConfig: { maxOutputTokens: 16 } }),
    imageSlots: [geminiImage],
  },
  {
    name: 'gemini generate (v1)',
    method: 'POST',
    path: '/v1/models/textmodel-b-4o-mini:generateContent',
    family: 'gemini',
    keyPlaces: ['x-goog-api-key', 'query-key'],
    body: () => ({
      contents: geminiContents(),
      generationConfig: {
        maxOutputTokens: 16,
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { a: { type: 'STRING' } } },
      },
    }),
  },
  {
    name: 'gemini stream',
    method: 'POST',
    path: `/v1beta/models/${GEMINI_CHAT}:streamGenerateContent?alt=sse`,
    family: 'gemini',
    keyPlaces: ['x-goog-api-key', 'query-key'],
    body: () => ({ contents: geminiContents(), generationConfig: { maxOutputTokens: 16 } }),
  },
  {
    name: 'gemini count tokens',
    method: 'POST',
    path: `/v1beta/models/${GEMINI_CHAT}:countTokens`,
    family: 'gemini',
    keyPlaces: ['x-goog-api-key', 'query-key'],
    body: () => ({ contents: geminiContents() }),
    imageSlots: [geminiImage],
  },
  {
    name: 'gemini embed',
    method: 'POST',
    path: `/v1beta/models/${GEMINI_EMBED}:embedContent`,
    family: 'gemini',
    keyPlaces: ['x-goog-api-key', 'query-key'],
    body: () => ({ content: { parts: [{ text: 'hello' }] } }),
  },
  {
    name: 'gemini batch embed',
    method: 'POST',
    path: `/v1beta/models/${GEMINI_EMBED}:batchEmbedContents`,
    family: 'gemini',
    keyPlaces: ['x-goog-api-key', 'query-key'],
    body: () => ({ requests: [{ model: `models/${GEMINI_EMBED}`, content: { parts: [{ text: 'a' }] } }] }),
  },
  { name: 'gemini models list', method: 'GET', path: '/v1beta/models', family: 'gemini', keyPlaces: ['x-goog-api-key', 'query-key'] },
  { name: 'gemini model get', method: 'GET', path: `/v1beta/models/${GEMINI_CHAT}`, family: 'gemini', keyPlaces: ['x-goog-api-key', 'query-key'] },
  {
    name: 'imagegen2 remix',
    method: 'POST',
    path: '/imagegen2/remix',
    family: 'imagegen2',
    keyPlaces: ['bearer', 'api-key'],
    body: () => ({ prompt: 'in blue', image_weight: 0.5, aspect_ratio: '1:1' }),
    imageSlots: [field('image')],
  },
  {
    name: 'imagegen2 edit',
    method: 'POST',
    path: '/imagegen2/edit',
    family: 'imagegen2',
    keyPlaces: ['bearer', 'api-key'],
    body: () => ({ prompt: 'add a moon' }),
    imageSlots: [field('image'), field('mask')],
  },
  {
    name: 'imagegen2 remix-image',
    method: 'POST',
    path: '/imagegen2/remix-image',
    family: 'imagegen2',
    keyPlaces: ['bearer', 'api-key'],
    body: () => ({ prompt: 'together' }),
    imageSlots: [blendImages],
  },
  {
    name: 'imagegen1 create',
    method: 'POST',
    path: '/imagegen1/create',
    family: 'imagegen1',
    keyPlaces: ['bearer', 'token'],
    body: () => ({ model: IMAGEGEN1_MODEL, prompt: 'a red square', width: 256, height: 256, num_outputs: 1, seed: 3, output_format: 'png' }),
    optionalFields: () => ({ webhook: HOOK_URL }),
  },
  {
    name: 'imagegen1 create (Replicate input shape)',
    method: 'POST',
    path: '/imagegen1/create',
    family: 'imagegen1',
    keyPlaces: ['token', 'bearer'],
    body: () => ({ model: IMAGEGEN1_MODEL, input: { prompt: 'a blue circle', aspect_ratio: '1:1', num_outputs: 2 }, webhook_events_filter: ['completed'] }),
  },
  { name: 'imagegen1 task', method: 'GET', path: `/imagegen1/task/${IMAGEGEN1_UNKNOWN_ID}`, family: 'imagegen1', keyPlaces: ['bearer', 'token'] },
  {
    name: 'imagegen1 cancel',
    method: 'POST',
    path: `/imagegen1/task/${IMAGEGEN1_UNKNOWN_ID}/cancel`,
    family: 'imagegen1',
    keyPlaces: ['bearer', 'token'],
    body: () => ({}),
  },
  {
    name: 'imgtask imagine',
    method: 'POST',
    path: '/imgtask/submit/imagine',
    family: 'imgtask',
    keyPlaces: ['bearer', 'mj-api-secret'],
    body: () => ({ prompt: 'a lighthouse at dawn', state: 'fuzz' }),
    optionalFields: () => ({ notifyHook: HOOK_URL }),
  },
  {
    name: 'imgtask blend',
    method: 'POST',
    path: '/imgtask/submit/blend',
    family: 'imgtask',
    keyPlaces: ['bearer', 'mj-api-secret'],
    body: () => ({ dimensions: 'SQUARE' }),
    imageSlots: [imgtaskBlendImages],
  },
  {
    name: 'imgtask describe (MJ-proxy path)',
    method: 'POST',
    path: '/mj/submit/describe',
    family: 'imgtask',
    keyPlaces: ['mj-api-secret', 'bearer'],
    body: () => ({}),
    imageSlots: [imgtaskDescribeImage],
  },
  {
    name: 'imgtask action',
    method: 'POST',
    path: '/imgtask/submit/action',
    family: 'imgtask',
    keyPlaces: ['bearer', 'mj-api-secret'],
    body: () => ({ taskId: IMGTASK_UNKNOWN_ID, customId: 'MJ::JOB::upsample::1::fuzz' }),
  },
  { name: 'imgtask fetch', method: 'GET', path: `/imgtask/task/${IMGTASK_UNKNOWN_ID}/fetch`, family: 'imgtask', keyPlaces: ['bearer', 'mj-api-secret'] },
  { name: 'imgtask image seed', method: 'GET', path: `/mj/task/${IMGTASK_UNKNOWN_ID}/image-seed`, family: 'imgtask', keyPlaces: ['mj-api-secret', 'bearer'] },
  {
    name: 'imgtask list by condition',
    method: 'POST',
    path: '/imgtask/task/list-by-condition',
    family: 'imgtask',
    keyPlaces: ['bearer', 'mj-api-secret'],
    body: () => ({ ids: [IMGTASK_UNKNOWN_ID] }),
  },
  {
    name: 'imgtask cancel',
    method: 'POST',
    path: `/imgtask/task/${IMGTASK_UNKNOWN_ID}/cancel`,
    family: 'imgtask',
    keyPlaces: ['bearer', 'mj-api-secret'],
    body: () => ({}),
  },
  {
    name: 'task callback (upstream wake-up, no key)',
    method: 'POST',
    path: '/tasks/callback/fuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzz',
    family: 'openai',
    keyPlaces: ['none'],
    body: () => ({ challenge: 'fuzz' }),
  },
  {
    name: 'videogen1 video',
    method: 'POST',
    path: '/videogen1/video',
    family: 'videogen1',
    keyPlaces: ['bearer'],
    body: () => ({ prompt: 'waves at dusk', model: 'videogen1-video-01', duration: 5, aspect_ratio: '16:9' }),
    optionalFields: callbackField,
  },
  { name: 'videogen1 lookup', method: 'GET', path: `/videogen1/video/${VIDEO_UNKNOWN_ID}`, family: 'videogen1', keyPlaces: ['bearer'] },
  {
    name: 'videogen2 video',
    method: 'POST',
    path: '/videogen2/video',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'videogen2-1-0-lite', prompt: 'a kite over hills', duration: 5, resolution: '720p' }),
    imageSlots: [videogen2Image],
    optionalFields: callbackField,
  },
  { name: 'videogen2 lookup', method: 'GET', path: `/videogen2/video/${VIDEO_UNKNOWN_ID}`, family: 'openai', keyPlaces: ['bearer'] },
  {
    name: 'video generations',
    method: 'POST',
    path: '/v1/video/generations',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'videogen2-1-0-lite-t2v-250428', content: [{ type: 'text', text: 'a quiet lake --ratio 16:9 --resolution 720p --seed 1' }] }),
    imageSlots: [videoContentImage],
    optionalFields: callbackField,
  },
  { name: 'video generations lookup', method: 'GET', path: `/v1/video/generations/${VIDEO_UNKNOWN_ID}`, family: 'openai', keyPlaces: ['bearer'] },
  {
    name: 'videogen3 generate',
    method: 'POST',
    path: '/videogen3/generate',
    family: 'videogen3',
    keyPlaces: ['bearer'],
    body: () => ({ prompt: 'a tiger in snow', aspect_ratio: '16:9', resolution: '720p', duration: '5s' }),
    imageSlots: [videoKeyframe],
    optionalFields: callbackField,
  },
  { name: 'videogen3 lookup', method: 'GET', path: `/videogen3/task/${VIDEO_UNKNOWN_ID}`, family: 'videogen3', keyPlaces: ['bearer'] },
  {
    name: 'openai videos create',
    method: 'POST',
    path: '/v1/videos',
    family: 'openai',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'videogen2-1-0-lite', prompt: 'a kite over hills', seconds: '4', size: '1280x720' }),
    imageSlots: [openaiVideoReference],
    optionalFields: callbackField,
  },
  {
    name: 'openai videos create (multipart)',
    method: 'POST',
    path: '/v1/videos',
    family: 'openai',
    keyPlaces: ['bearer'],
    multipart: true,
    body: () => ({ model: 'videogen2-1-0-lite', prompt: 'the cat walks', seconds: '8', size: '720x1280' }),
    imageSlots: [filePart('input_reference')],
  },
  { name: 'openai videos list', method: 'GET', path: '/v1/videos?limit=5&order=asc', family: 'openai', keyPlaces: ['bearer'] },
  { name: 'openai videos retrieve', method: 'GET', path: `/v1/videos/${VIDEO_UNKNOWN_ID}`, family: 'openai', keyPlaces: ['bearer'] },
  { name: 'openai videos delete', method: 'DELETE', path: `/v1/videos/${VIDEO_UNKNOWN_ID}`, family: 'openai', keyPlaces: ['bearer'] },
  { name: 'openai videos content', method: 'GET', path: `/v1/videos/${VIDEO_UNKNOWN_ID}/content?variant=thumbnail`, family: 'openai', keyPlaces: ['bearer'] },
  { name: 'video download', method: 'GET', path: `/v1/videos/${VIDEO_UNKNOWN_ID}/download`, family: 'openai', keyPlaces: ['bearer'] },
  { name: 'media', method: 'GET', path: '/media/0123456789abcdef0123456789abcdef.png', family: 'openai', keyPlaces: ['none'] },
  { name: 'health', method: 'GET', path: '/healthz', family: 'none', keyPlaces: ['none'] },
  // Prometheus text behind the metrics token (the fuzz gateway's token is its master key); a refusal is plain JSON of its own.
  { name: 'metrics', method: 'GET', path: '/metrics', family: 'none', keyPlaces: ['bearer'] },
  // The dashboard's files: plain text errors (a browser's asset request), so no error shape, but no 5xx either.
  { name: 'dashboard page', method: 'GET', path: '/dashboard/usage', family: 'none', keyPlaces: ['none'] },
  { name: 'dashboard asset', method: 'GET', path: '/dashboard/assets/main-0000.js', family: 'none', keyPlaces: ['none'] },
  // The admin API, called as a script would (the fuzz key is the master key); its own error shape.
  {
    name: 'admin sign-in',
    method: 'POST',
    path: '/admin/v1/session',
    family: 'admin',
    keyPlaces: ['none'],
    body: () => ({ email: 'fuzz@example.com', password: 'not the password' }),
  },
  {
    name: 'admin setup link lookup',
    method: 'POST',
    path: '/admin/v1/setup/lookup',
    family: 'admin',
    keyPlaces: ['none'],
    body: () => ({ token: 'f'.repeat(43) }),
  },
  {
    name: 'admin setup',
    method: 'POST',
    path: '/admin/v1/setup',
    family: 'admin',
    keyPlaces: ['none'],
    body: () => ({ token: 'f'.repeat(43), password: 'fuzz password 123' }),
  },
  { name: 'admin accounts', method: 'GET', path: '/admin/v1/accounts', family: 'admin', keyPlaces: ['bearer'] },
  {
    name: 'admin account update',
    method: 'PATCH',
    path: '/admin/v1/accounts/acc_unknown',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({ role: 'member' }),
  },
  { name: 'admin keys', method: 'GET', path: '/admin/v1/keys?limit=5', family: 'admin', keyPlaces: ['bearer'] },
  // Cursors the database cannot compare (`[1.5,"x"]`, `[1e308,1]`): the client's 400, never a 500 with the database's words.
  { name: 'admin keys (crafted cursor)', method: 'GET', path: '/admin/v1/keys?cursor=WzEuNSwieCJd', family: 'admin', keyPlaces: ['bearer'] },
  { name: 'admin audit (crafted cursor)', method: 'GET', path: '/admin/v1/audit?cursor=WzFlMzA4LDFd', family: 'admin', keyPlaces: ['bearer'] },
  {
    name: 'admin key create',
    method: 'POST',
    path: '/admin/v1/keys',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({ name: 'fuzz', models: ['textmodel-b-*'], expiresAt: Date.now() + 86_400_000 }),
  },
  { name: 'admin key revoke', method: 'DELETE', path: '/admin/v1/keys/unknownkey', family: 'admin', keyPlaces: ['bearer'] },
  { name: 'admin channels', method: 'GET', path: '/admin/v1/channels', family: 'admin', keyPlaces: ['bearer'] },
  {
    name: 'admin channel create (disabled, to a closed port)',
    method: 'POST',
    path: '/admin/v1/channels',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({
      name: `fuzz-${Math.random().toString(36).slice(2, 8)}`,
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'sk-fuzz',
      models: ['fuzz-only-*'],
      enabled: false,
    }),
  },
  {
    // Link-local and metadata hosts in several spellings: always refused (400), never stored.
    name: 'admin channel create (metadata base URL)',
    method: 'POST',
    path: '/admin/v1/channels',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({
      name: `fuzz-${Math.random().toString(36).slice(2, 8)}`,
      provider: 'openai',
      baseUrl: METADATA_BASE_URLS[Math.floor(Math.random() * METADATA_BASE_URLS.length)],
      apiKey: 'sk-fuzz',
      models: ['fuzz-only-*'],
      enabled: false,
    }),
  },
  {
    // Probe settings, which the attacks bend (bounds, types, unknown fields); the channel is off, so never probed.
    name: 'admin channel create (with probes)',
    method: 'POST',
    path: '/admin/v1/channels',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({
      name: `fuzz-${Math.random().toString(36).slice(2, 8)}`,
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'sk-fuzz',
      models: ['fuzz-only-*'],
      enabled: false,
      probe: { enabled: true, intervalSeconds: 15 + Math.floor(Math.random() * 3586), autoEnable: Math.random() < 0.5 },
    }),
  },
  {
    // Provider options, which the attacks bend (deep nesting, huge strings, wrong types, unknown names): 400s, never 500s; the channel is off.
    name: 'admin channel create (with options)',
    method: 'POST',
    path: '/admin/v1/channels',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({
      name: `fuzz-${Math.random().toString(36).slice(2, 8)}`,
      provider: Math.random() < 0.5 ? 'bedrock' : 'replicate',
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'fuzz-key',
      models: ['fuzz-only-*'],
      enabled: false,
      options: { region: 'eu-west-1', webhookSecret: 'whsec_fuzz', pollIntervalMs: 250, failModels: ['a', 'b'], streamUsage: false },
    }),
  },
  {
    name: 'admin channel options change',
    method: 'PATCH',
    path: '/admin/v1/channels/no-such-channel',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({ options: { region: 'us-east-1', webhookSecret: null, deadlineMs: 60_000, tags: ['x'] } }),
  },
  {
    name: 'admin channel probe change',
    method: 'PATCH',
    path: '/admin/v1/channels/no-such-channel',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({ probe: { enabled: Math.random() < 0.5, intervalSeconds: 3600, autoEnable: true } }),
  },
  { name: 'admin channels health', method: 'GET', path: '/admin/v1/channels/health', family: 'admin', keyPlaces: ['bearer'] },
  { name: 'admin channel test', method: 'POST', path: '/admin/v1/channels/no-such-channel/test', family: 'admin', keyPlaces: ['bearer'], body: () => ({}) },
  { name: 'admin usage', method: 'GET', path: '/admin/v1/usage?groupBy=model', family: 'admin', keyPlaces: ['bearer'] },
  { name: 'admin usage csv', method: 'GET', path: '/admin/v1/usage.csv?groupBy=day', family: 'admin', keyPlaces: ['bearer'] },
  { name: 'admin usage refusals', method: 'GET', path: '/admin/v1/usage/refusals', family: 'admin', keyPlaces: ['bearer'] },
  { name: 'admin usage errors', method: 'GET', path: '/admin/v1/usage/errors?errorType=upstream.timeout', family: 'admin', keyPlaces: ['bearer'] },
  {
    name: 'admin usage records by error type',
    method: 'GET',
    path: '/admin/v1/usage/records?errorType=client.auth&limit=5',
    family: 'admin',
    keyPlaces: ['bearer'],
  },
  { name: 'admin tasks', method: 'GET', path: '/admin/v1/tasks?status=succeeded', family: 'admin', keyPlaces: ['bearer'] },
  { name: 'admin task', method: 'GET', path: '/admin/v1/tasks/task_unknown', family: 'admin', keyPlaces: ['bearer'] },
  { name: 'admin responses', method: 'GET', path: '/admin/v1/responses?limit=5', family: 'admin', keyPlaces: ['bearer'] },
  { name: 'admin response delete', method: 'DELETE', path: `/admin/v1/responses/${RESPONSE_UNKNOWN_ID}`, family: 'admin', keyPlaces: ['bearer'] },
  { name: 'admin models', method: 'GET', path: '/admin/v1/models', family: 'admin', keyPlaces: ['bearer'] },
  {
    name: 'admin model override',
    method: 'PUT',
    path: '/admin/v1/models/fuzz-model-override',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({ displayName: 'fuzz', operations: ['chat'], price: { inputPerMillion: 1, outputPerMillion: 2 } }),
  },
  {
    name: 'admin playground',
    method: 'POST',
    path: '/admin/v1/playground/chat',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({ model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'Say hello.' }], maxTokens: 16 }),
  },
  { name: 'admin audit', method: 'GET', path: '/admin/v1/audit?limit=10', family: 'admin', keyPlaces: ['bearer'] },
  // Limits and budgets: a model rule on models no channel serves (a second one is a 409), a budget on an unknown key (400).
  { name: 'admin limits', method: 'GET', path: '/admin/v1/limits?scope=model', family: 'admin', keyPlaces: ['bearer'] },
  {
    name: 'admin limit create',
    method: 'POST',
    path: '/admin/v1/limits',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({ scope: 'model', model: 'fuzz-only-*', kind: 'concurrent_requests', limit: 1000 }),
  },
  { name: 'admin limit change', method: 'PATCH', path: '/admin/v1/limits/lim_unknown', family: 'admin', keyPlaces: ['bearer'], body: () => ({ limit: 5 }) },
  { name: 'admin limit remove', method: 'DELETE', path: '/admin/v1/limits/lim_unknown', family: 'admin', keyPlaces: ['bearer'] },
  { name: 'admin limits standing', method: 'GET', path: '/admin/v1/limits/standing?keyId=unknownkey', family: 'admin', keyPlaces: ['bearer'] },
  { name: 'admin budgets', method: 'GET', path: '/admin/v1/budgets', family: 'admin', keyPlaces: ['bearer'] },
  {
    name: 'admin budget create',
    method: 'POST',
    path: '/admin/v1/budgets',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({ scope: 'key', subject: 'unknownkey', period: 'month', timeZone: 'Europe/Paris', limitUsd: '12.50', softUsd: 10 }),
  },
  {
    name: 'admin budget change',
    method: 'PATCH',
    path: '/admin/v1/budgets/bud_unknown',
    family: 'admin',
    keyPlaces: ['bearer'],
    body: () => ({ limitUsd: 20, softUsd: null, period: 'week', timeZone: 'UTC' }),
  },
  { name: 'admin budget remove', method: 'DELETE', path: '/admin/v1/budgets/bud_unknown', family: 'admin', keyPlaces: ['bearer'] },
  { name: 'unknown path', method: 'GET', path: '/v2/unknown', family: 'openai', keyPlaces: ['bearer'] },
  { name: 'unknown gemini path', method: 'POST', path: '/v1beta/tunedModels/x:generate', family: 'gemini', keyPlaces: ['x-goog-api-key'], body: () => ({}) },
];

/** Images every image route needs to be valid at all (the base bodies leave them out). */
export function withValidImages(route: Route, body: Record<string, unknown>, tiny: HostileImage): void {
  if (route.path.startsWith('/imagegen2/') || route.path === '/v1/images/edits') {
    route.imageSlots?.[0]?.(body, tiny, 'base64');
  }
}
