/**
 * Requests Node's HTTP parser refuses before Fastify sees them — headers over the size limit,
 * bad framing (invalid content-length, content-length with transfer-encoding, bad chunked
 * encoding), bytes not allowed in a header, a request not received within the timeouts — are
 * answered on the raw socket, in the error shape of the family of the request's path, then the
 * connection is closed.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { GatewayError } from '../core/errors.js';
import type { ErrorFamilies } from './error-family.js';

interface ClientError extends Error {
  code?: string;
  rawPacket?: unknown;
}

/** What Node's internals leave on the socket: the parser and the request it is reading. */
interface ParsedSocket extends Socket {
  parser?: { incoming?: IncomingMessage | null } | null;
  _httpMessage?: { headersSent?: boolean } | null;
}

const REQUEST_LINE = /^[A-Z]{1,20} (\/[^\s]*)/;
const MAX_SCANNED_BYTES = 64 * 1024;

function gatewayErrorForClientError(error: ClientError): GatewayError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new GatewayError('invalid_request', 'the request was not received in time', { code: 'request_timeout', status: 408 });
    case 'HPE_HEADER_OVERFLOW':
      return new GatewayError('invalid_request', 'the request line and headers are larger than the server accepts', { code: 'headers_too_large', status: 431 });
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new GatewayError('invalid_request', 'invalid content-length header', { code: 'invalid_framing' });
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return new GatewayError('invalid_request', 'invalid transfer-encoding header (content-length and transfer-encoding must not be sent together)', {
        code: 'invalid_framing',
      });
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
    case 'HPE_INVALID_EOF_STATE':
      return new GatewayError('invalid_request', 'malformed chunked request body', { code: 'invalid_framing' });
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return new GatewayError('invalid_request', 'malformed request header (invalid characters or line endings)', { code: 'invalid_header' });
    case 'HPE_INVALID_METHOD':
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_VERSION':
      return new GatewayError('invalid_request', 'malformed request line', { code: 'invalid_request_line' });
    default:
      return new GatewayError('invalid_request', 'malformed HTTP request', { code: 'invalid_request' });
  }
}

/** The URL and headers of the request being read, when the parser got that far; else the path from the raw bytes. */
function requestTarget(error: ClientError, socket: ParsedSocket): { url: string; headers?: IncomingMessage['headers'] } {
  const incoming = socket.parser?.incoming;
  if (incoming && !incoming.complete && typeof incoming.url === 'string') return { url: incoming.url, headers: incoming.headers };
  const raw = error.rawPacket;
  if (!Buffer.isBuffer(raw) || raw.length === 0) return { url: '/' };
  const text = raw.toString('latin1', 0, Math.min(raw.length, MAX_SCANNED_BYTES));
  // With keep-alive, earlier complete requests may share the packet: the failing one is the last.
  const requests = text.split('\r\n\r\n');
  for (let i = requests.length - 1; i >= 0; i--) {
    const match = REQUEST_LINE.exec(requests[i]);
    if (match) return { url: match[1] };
  }
  return { url: '/' };
}

/** Fastify's `clientErrorHandler` option. `nextRequestId` gives the id the answer carries. */
export function clientErrorHandler(families: ErrorFamilies, nextRequestId: () => string) {
  return (error: ClientError, rawSocket: Socket): void => {
    const socket = rawSocket as ParsedSocket;
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // An answer already under way cannot be replaced: just close.
    if (!socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const target = requestTarget(error, socket);
    const requestId = nextRequestId();
    const rendered = families.rendererFor(target.url, target.headers)(gatewayErrorForClientError(error), requestId);
    const body = JSON.stringify(rendered.body);
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
      'x-request-id': requestId,
      ...rendered.headers,
    };
    const head = [
      `HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status] ?? 'Error'}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  };
}
