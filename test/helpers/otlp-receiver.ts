/**
 * An OTLP/HTTP trace receiver for tests: it takes what the exporter POSTs to `/v1/traces`
 * (OTLP's JSON encoding, gzip or not), decodes it and keeps every span with its resource's
 * attributes. Bodies in any other encoding are answered 415 and kept as refused.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

type AttributeValue = string | number | boolean | undefined;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP SpanKind: 2 server, 3 client, 1 internal. */
  kind: number;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage?: string;
  attributes: Record<string, AttributeValue>;
  events: Array<{ name: string; attributes: Record<string, AttributeValue> }>;
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, AttributeValue> }>;
  resource: Record<string, AttributeValue>;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** The raw request bodies as text, to check what was never sent. */
  bodies: string[];
  refused: number;
  close(): Promise<void>;
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
}

function decodeAttributes(list: OtlpAttribute[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const { key, value } of list ?? []) {
    if (value.stringValue !== undefined) out[key] = value.stringValue;
    else if (value.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue;
    else if (value.boolValue !== undefined) out[key] = value.boolValue;
    else out[key] = undefined;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

// biome-ignore lint/suspicious/noExplicitAny: the OTLP JSON document is walked field by field
type Json = any;

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const receiver = { spans, bodies, refused: 0 };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
      receiver.refused++;
      res.writeHead(415).end();
      return;
    }
    const text = body.toString('utf8');
    bodies.push(text);
    const document: Json = JSON.parse(text);
    for (const resourceSpans of document.resourceSpans ?? []) {
      const resource = decodeAttributes(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            statusCode: span.status?.code ?? 0,
            statusMessage: span.status?.message,
            attributes: decodeAttributes(span.attributes),
            events: (span.events ?? []).map((event: Json) => ({ name: event.name, attributes: decodeAttributes(event.attributes) })),
            links: (span.links ?? []).map((link: Json) => ({ traceId: link.traceId, spanId: link.spanId, attributes: decodeAttributes(link.attributes) })),
            resource,
          });
        }
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    get refused() {
      return receiver.refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
