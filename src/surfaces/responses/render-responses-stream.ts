/**
 * Canonical ChatEvents → the Responses API's SSE events, as OpenAI streams them: `event: <type>`
 * and `data: <json>` with `sequence_number` 0, 1, 2… one per frame. `response.created` and
 * `response.in_progress` first; then each output item between `response.output_item.added` and
 * `.done` — a message with its `output_text` content part and deltas, a function call with its
 * argument deltas, reasoning with its summary part and deltas when the request asked for a
 * summary — one item open at a time (canonical thinking, text and calls may alternate: the open
 * item is closed before the next opens); then the terminal event, `response.completed`,
 * `.incomplete` or `.failed`, only once `beforeTerminal` (which stores the response) is done.
 *
 * Choices:
 * - The first canonical event is awaited before anything is yielded: a stream that throws (or
 *   reports an error, or ends) before it throws from the first `next()`, for the route to answer
 *   with an HTTP error. After that a failure — an `error` event, a throw, a stream that ends
 *   without `finish` — closes the open item (`incomplete`) and ends with `response.failed`.
 * - If `beforeTerminal` rejects after a successful answer, the stream ends with `response.failed`
 *   (`server_error`) instead of `.completed`: the response was not stored, and a client must not
 *   believe it can continue it with `previous_response_id`. `beforeTerminal` is not called again.
 * - Refusal text arrives as ordinary text deltas (the canonical stream says it was a refusal only
 *   at `finish`), so a streamed refusal keeps the `output_text` the client already received; only
 *   when nothing was said does the refusal come as a message with an empty `refusal` part.
 * - A late argument delta for a call already closed (calls interleaved upstream) is kept in the
 *   stored and terminal response, which the SDKs take as final, though no event carried it.
 * Hot path: a delta frame is one string template around one `JSON.stringify` of the delta text;
 * the response object is serialised only at the start and the end.
 */
import type { ChatEvent, FinishReason } from '../../core/chat.js';
import { GatewayError, toGatewayError } from '../../core/errors.js';
import type { ResponseItem } from '../../core/responses.js';
import { mergeUsage, type Usage } from '../../core/usage.js';
import { newResponseItemId } from './response-item-ids.js';
import {
  finalArguments,
  functionCallItem,
  type ItemStatus,
  messageItem,
  outputTextPart,
  reasoningItem,
  refusalPart,
  sealThinking,
  wantsReasoningSummary,
} from './render-output-items.js';
import { forClient, outcomeOf, type ResponseState, responseObject, toResponseError, withoutEncryptedContent } from './render-response-object.js';
import type { RenderContext, RenderedResponse, RenderResponsesStream } from './seams.js';
import { obfuscationPadding } from './stream-obfuscation.js';

type BeforeTerminal = (rendered: RenderedResponse) => Promise<void>;

export const renderResponsesStream: RenderResponsesStream = (events, context, beforeTerminal) => streamResponse(events, context, beforeTerminal);

async function* streamResponse(events: AsyncIterable<ChatEvent>, context: RenderContext, beforeTerminal: BeforeTerminal): AsyncGenerator<string> {
  const iterator = events[Symbol.asyncIterator]();
  let result = await iterator.next();
  if (result.done) throw new GatewayError('upstream', 'upstream stream ended before it started');
  if (result.value.type === 'error') {
    await iterator.return?.()?.catch(() => undefined);
    throw result.value.error;
  }
  const writer = new ResponsesStreamWriter(context);
  const frames = writer.frames;
  /** The upstream stream ended or threw: nothing to let go of. */
  let exhausted = false;
  let failure: GatewayError | undefined;
  try {
    writer.opening();
    yield* drain(frames);
    for (;;) {
      if (result.done) {
        exhausted = true;
        failure = new GatewayError('upstream', 'upstream stream ended before the response was complete');
        break;
      }
      const event = result.value;
      if (event.type === 'finish') {
        // The open item's last frames go out at once; only the terminal one waits for the store.
        writer.end(event.finishReason, event.usage);
        yield* drain(frames);
        await writer.finish(event.finishReason, beforeTerminal);
        yield* drain(frames);
        return;
      }
      if (event.type === 'error') {
        failure = event.error;
        break;
      }
      writer.apply(event);
      if (frames.length > 0) {
        for (let i = 0; i < frames.length; i++) yield frames[i];
        frames.length = 0;
      }
      try {
        result = await iterator.next();
      } catch (error) {
        exhausted = true;
        failure = toGatewayError(error);
        break;
      }
    }
    writer.closeOpen('incomplete');
    yield* drain(frames);
    await writer.fail(failure, beforeTerminal);
    yield* drain(frames);
  } finally {
    // After the terminal event, or when the client leaves: let the upstream stream go (its own cleanup runs).
    if (!exhausted) await iterator.return?.()?.catch(() => undefined);
  }
}

/** Yields the frames written so far, one a string, and empties the queue. */
function* drain(frames: string[]): Generator<string> {
  for (let i = 0; i < frames.length; i++) yield frames[i];
  frames.length = 0;
}

interface OpenReasoning {
  kind: 'reasoning';
  id: string;
  outputIndex: number;
  text: string;
  /** The summary part was announced (a summary was asked for and text arrived). */
  summaryOpen: boolean;
  deltaHead: string;
}

interface OpenMessage {
  kind: 'message';
  id: string;
  outputIndex: number;
  text: string;
  deltaHead: string;
}

interface FunctionCall {
  kind: 'function_call';
  id: string;
  outputIndex: number;
  callId: string;
  name: string;
  args: string;
  closed: boolean;
  deltaHead: string;
}

type OpenItem = OpenReasoning | OpenMessage | FunctionCall;

/** The state of one streamed response; each step appends its frames to `frames`. */
class ResponsesStreamWriter {
  /** Frames written and not yet yielded, one SSE frame each. */
  readonly frames: string[] = [];
  private sequence = 0;
  private readonly output: ResponseItem[] = [];
  private open: OpenItem | undefined;
  /** Function calls by canonical index. */
  private readonly calls = new Map<number, FunctionCall>();
  private readonly usage: Usage = { inputTokens: 0, outputTokens: 0 };
  private readonly withSummary: boolean;
  private readonly showSealed: boolean;

  constructor(private readonly context: RenderContext) {
    this.withSummary = wantsReasoningSummary(context.echo);
    this.showSealed = context.include.includes('reasoning.encrypted_content');
  }

  opening(): void {
    const inProgress = JSON.stringify(responseObject(this.context, { status: 'in_progress', output: [] }));
    this.frame('response.created', `,"response":${inProgress}`);
    this.frame('response.in_progress', `,"response":${inProgress}`);
  }

  apply(event: Exclude<ChatEvent, { type: 'finish' | 'error' }>): void {
    switch (event.type) {
      case 'start':
      case 'usage':
        mergeUsage(this.usage, event.usage);
        return;
      case 'text_delta':
        if (event.text.length > 0) this.text(event.text);
        return;
      case 'thinking_delta':
        this.thinking(event.text, event.signature);
        return;
      case 'tool_call_start':
        this.startCall(event.index, event.id, event.name);
        return;
      case 'tool_call_delta':
        this.callArguments(event.index, event.argumentsDelta);
        return;
    }
  }

  /** Closes the open item as a finish with `reason` leaves it, and takes the final usage. */
  end(reason: FinishReason, usage: Usage): void {
    mergeUsage(this.usage, usage);
    this.closeOpen(outcomeOf(reason).status === 'incomplete' ? 'incomplete' : 'completed');
    if (reason === 'refusal' && !this.output.some((item) => item.type === 'message')) this.emptyRefusal();
  }

  /** After `end`: stores the response, then writes its terminal frame (`response.failed` if storing failed). */
  async finish(reason: FinishReason, beforeTerminal: BeforeTerminal): Promise<void> {
    const { status, incompleteReason } = outcomeOf(reason);
    const rendered = this.rendered({ status, output: this.output, usage: this.usage, incompleteReason });
    try {
      await beforeTerminal(rendered);
    } catch {
      const error = { code: 'server_error', message: 'the response could not be stored, so it cannot be retrieved or continued; try again' };
      this.terminal('response.failed', this.rendered({ status: 'failed', output: this.output, error }));
      return;
    }
    this.terminal(status === 'completed' ? 'response.completed' : 'response.incomplete', rendered);
  }

  /** After `closeOpen('incomplete')`: stores the failed response, then writes `response.failed`. */
  async fail(error: GatewayError, beforeTerminal: BeforeTerminal): Promise<void> {
    const rendered = this.rendered({ status: 'failed', output: this.output, error: toResponseError(error) });
    // Failed either way: a store that fails as well changes nothing the client is told.
    await beforeTerminal(rendered).catch(() => undefined);
    this.terminal('response.failed', rendered);
  }

  private text(delta: string): void {
    let open = this.open;
    if (open?.kind !== 'message') {
      this.closeOpen('completed');
      const id = newResponseItemId('msg');
      const outputIndex = this.output.length;
      const at = `,"item_id":"${id}","output_index":${outputIndex}`;
      open = { kind: 'message', id, outputIndex, text: '', deltaHead: `${at},"content_index":0,"logprobs":[],"delta":` };
      this.open = open;
      this.itemAdded(messageItem(id, 'in_progress', []));
      this.frame('response.content_part.added', `${at},"content_index":0,"part":${JSON.stringify(outputTextPart(''))}`);
    }
    open.text += delta;
    this.delta('response.output_text.delta', open.deltaHead, delta);
  }

  private thinking(delta: string, signature: string | undefined): void {
    let open = this.open;
    if (open?.kind !== 'reasoning') {
      if (delta.length === 0 && !signature) return;
      this.closeOpen('completed');
      const id = newResponseItemId('rs');
      const outputIndex = this.output.length;
      open = {
        kind: 'reasoning',
        id,
        outputIndex,
        text: '',
        summaryOpen: false,
        deltaHead: `,"item_id":"${id}","output_index":${outputIndex},"summary_index":0,"delta":`,
      };
      this.open = open;
      this.itemAdded(reasoningItem(id, undefined, undefined));
    }
    if (delta.length > 0) {
      open.text += delta;
      if (this.withSummary) {
        if (!open.summaryOpen) {
          open.summaryOpen = true;
          this.frame('response.reasoning_summary_part.added', `${this.at(open)},"summary_index":0,"part":{"type":"summary_text","text":""}`);
        }
        this.delta('response.reasoning_summary_text.delta', open.deltaHead, delta);
      }
    }
    // A signature ends a thinking block: thinking after it is another block, another item.
    if (signature) this.closeReasoning(open, signature);
  }

  private startCall(index: number, callId: string, name: string): void {
    this.closeOpen('completed');
    const id = newResponseItemId('fc');
    const outputIndex = this.output.length;
    const deltaHead = `,"item_id":"${id}","output_index":${outputIndex},"delta":`;
    const call: FunctionCall = { kind: 'function_call', id, outputIndex, callId, name, args: '', closed: false, deltaHead };
    this.calls.set(index, call);
    this.open = call;
    this.itemAdded(functionCallItem(id, 'in_progress', callId, name, ''));
  }

  private callArguments(index: number, delta: string): void {
    const call = this.calls.get(index);
    if (!call || delta.length === 0) return;
    call.args += delta;
    if (!call.closed) this.delta('response.function_call_arguments.delta', call.deltaHead, delta);
    else this.output[call.outputIndex].arguments = call.args;
  }

  /** Closes the open item, if any, with the frames that end it. */
  closeOpen(status: ItemStatus): void {
    const open = this.open;
    if (!open) return;
    if (open.kind === 'reasoning') {
      this.closeReasoning(open, undefined);
      return;
    }
    this.open = undefined;
    const at = this.at(open);
    if (open.kind === 'message') {
      const part = outputTextPart(open.text);
      this.frame('response.output_text.done', `${at},"content_index":0,"logprobs":[],"text":${JSON.stringify(open.text)}`);
      this.frame('response.content_part.done', `${at},"content_index":0,"part":${JSON.stringify(part)}`);
      this.itemDone(messageItem(open.id, status, [part]), open.outputIndex);
      return;
    }
    open.closed = true;
    open.args = finalArguments(open.args);
    this.frame('response.function_call_arguments.done', `${at},"name":${JSON.stringify(open.name)},"arguments":${JSON.stringify(open.args)}`);
    this.itemDone(functionCallItem(open.id, status, open.callId, open.name, open.args), open.outputIndex);
  }

  private closeReasoning(open: OpenReasoning, signature: string | undefined): void {
    this.open = undefined;
    const at = this.at(open);
    if (open.summaryOpen) {
      const text = JSON.stringify(open.text);
      this.frame('response.reasoning_summary_text.done', `${at},"summary_index":0,"text":${text}`);
      this.frame('response.reasoning_summary_part.done', `${at},"summary_index":0,"part":{"type":"summary_text","text":${text}}`);
    }
    const sealed = sealThinking(this.context, { text: open.text, signature });
    this.itemDone(reasoningItem(open.id, open.summaryOpen ? open.text : undefined, sealed), open.outputIndex);
  }

  /** A refusal with no words: a message whose `refusal` part is empty, as the JSON answer gives. */
  private emptyRefusal(): void {
    const id = newResponseItemId('msg');
    const outputIndex = this.output.length;
    const at = `,"item_id":"${id}","output_index":${outputIndex},"content_index":0`;
    const part = JSON.stringify(refusalPart(''));
    this.itemAdded(messageItem(id, 'in_progress', []));
    this.frame('response.content_part.added', `${at},"part":${part}`);
    this.frame('response.refusal.done', `${at},"refusal":""`);
    this.frame('response.content_part.done', `${at},"part":${part}`);
    this.itemDone(messageItem(id, 'completed', [refusalPart('')]), outputIndex);
  }

  private rendered(state: ResponseState): RenderedResponse {
    return { object: responseObject(this.context, state), outputItems: state.output };
  }

  private terminal(type: string, rendered: RenderedResponse): void {
    this.frame(type, `,"response":${JSON.stringify(forClient(rendered, this.context.include))}`);
  }

  /** Announces a new item at the end of the output (where it stays, replaced when it is done). */
  private itemAdded(item: ResponseItem): void {
    const outputIndex = this.output.length;
    this.output.push(item);
    this.frame('response.output_item.added', `,"output_index":${outputIndex},"item":${JSON.stringify(item)}`);
  }

  private itemDone(item: ResponseItem, outputIndex: number): void {
    this.output[outputIndex] = item;
    const shown = this.showSealed || item.encrypted_content === undefined ? item : withoutEncryptedContent(item);
    this.frame('response.output_item.done', `,"output_index":${outputIndex},"item":${JSON.stringify(shown)}`);
  }

  private delta(type: string, head: string, delta: string): void {
    const padding = this.context.includeObfuscation ? `,"obfuscation":"${obfuscationPadding(delta.length)}"` : '';
    this.frame(type, `${head}${JSON.stringify(delta)}${padding}`);
  }

  private at(item: OpenItem): string {
    return `,"item_id":"${item.id}","output_index":${item.outputIndex}`;
  }

  /** One SSE frame; `fields` is the rest of the JSON object after `type` and `sequence_number`, each with its leading comma. */
  private frame(type: string, fields: string): void {
    this.frames.push(`event: ${type}\ndata: {"type":"${type}","sequence_number":${this.sequence++}${fields}}\n\n`);
  }
}
