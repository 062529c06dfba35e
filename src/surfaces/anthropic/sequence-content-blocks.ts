/**
 * Anthropic streams content blocks strictly one after another: start, deltas, stop, then the
 * next block. Canonical events need not: an OpenAI upstream may interleave the argument
 * deltas of parallel tool calls. This sequencer keeps the block that is open on the wire
 * streaming live and holds back what belongs to later blocks until the open one is complete.
 *
 * A text or thinking block is complete as soon as a later block exists (text after a tool
 * call is a new block); a signed thinking block takes no more deltas; a tool block is
 * complete once its arguments form a whole JSON value (or at the end). What is held back is
 * bounded: past `maxHeldChars` the stream fails with a GatewayError instead of growing.
 */
import { GatewayError } from '../../core/errors.js';
import { anthropicToolUseId } from './anthropic-tool-use-id.js';
import { JsonEndScanner } from './json-end-scanner.js';

/** Enough for the largest tool arguments a model writes in one answer, many times over. */
const MAX_HELD_BACK_CHARS = 4 * 1024 * 1024;

type Emit = (type: string, payload: Record<string, unknown>) => void;

interface Block {
  kind: 'text' | 'thinking' | 'tool';
  contentBlock: Record<string, unknown>;
  /** Anthropic index, given when the block opens on the wire. */
  index?: number;
  held: Array<Record<string, unknown>>;
  closed: boolean;
  signed?: boolean;
  json?: JsonEndScanner;
  toolId?: string;
}

export class ContentBlockSequencer {
  /** pending[0] is open on the wire (once opened); the rest wait their turn. */
  private readonly pending: Block[] = [];
  private readonly tools = new Map<number, Block>();
  private nextIndex = 0;
  private heldChars = 0;

  constructor(
    private readonly emit: Emit,
    private readonly maxHeldChars = MAX_HELD_BACK_CHARS,
  ) {}

  text(text: string): void {
    // OpenAI-style upstreams open with an empty delta; it must not open an empty block.
    if (text.length === 0) return;
    const tail = this.pending.at(-1);
    const block = tail?.kind === 'text' ? tail : this.add({ kind: 'text', contentBlock: { type: 'text', text: '' } });
    this.delta(block, { type: 'text_delta', text }, text.length);
  }

  thinking(text: string, signature: string | undefined): void {
    const tail = this.pending.at(-1);
    const block =
      tail?.kind === 'thinking' && !tail.signed ? tail : this.add({ kind: 'thinking', contentBlock: { type: 'thinking', thinking: '', signature: '' } });
    if (text.length > 0) this.delta(block, { type: 'thinking_delta', thinking: text }, text.length);
    if (signature !== undefined) {
      this.delta(block, { type: 'signature_delta', signature }, signature.length);
      block.signed = true;
    }
  }

  toolStart(toolIndex: number, id: string, name: string): void {
    const block = this.add({
      kind: 'tool',
      contentBlock: { type: 'tool_use', id: anthropicToolUseId(id), name, input: {} },
      json: new JsonEndScanner(),
      toolId: id,
    });
    this.tools.set(toolIndex, block);
  }

  toolDelta(toolIndex: number, argumentsDelta: string): void {
    const block = this.tools.get(toolIndex);
    if (block === undefined || argumentsDelta.length === 0) return;
    if (block.closed) {
      if (argumentsDelta.trim().length === 0) return;
      throw new GatewayError('upstream', `the upstream sent more arguments for tool call ${block.toolId ?? ''} after they were complete`);
    }
    block.json?.feed(argumentsDelta);
    this.delta(block, { type: 'input_json_delta', partial_json: argumentsDelta }, argumentsDelta.length);
    this.settle();
  }

  /** Closes every block in order: the end of the message. */
  finish(): void {
    while (this.pending.length > 0) {
      this.open(this.pending[0]);
      this.closeFirst();
    }
  }

  private add(fields: Omit<Block, 'held' | 'closed'>): Block {
    const block: Block = { ...fields, held: [], closed: false };
    this.pending.push(block);
    if (this.pending.length === 1) this.open(block);
    this.settle();
    return block;
  }

  private delta(block: Block, delta: Record<string, unknown>, size: number): void {
    if (block.index !== undefined) {
      this.emit('content_block_delta', { index: block.index, delta });
      return;
    }
    this.heldChars += size;
    if (this.heldChars > this.maxHeldChars) {
      throw new GatewayError('upstream', `the upstream interleaved more than ${this.maxHeldChars} characters of later content blocks; the stream was stopped`);
    }
    block.held.push(delta);
  }

  /** While the open block is complete and another waits, close it and open the next. */
  private settle(): void {
    while (this.pending.length > 1 && this.complete(this.pending[0])) {
      this.closeFirst();
      this.open(this.pending[0]);
    }
  }

  private complete(block: Block): boolean {
    return block.kind !== 'tool' || block.json?.complete === true;
  }

  private open(block: Block): void {
    if (block.index !== undefined) return;
    block.index = this.nextIndex++;
    this.emit('content_block_start', { index: block.index, content_block: block.contentBlock });
    for (const delta of block.held) {
      this.emit('content_block_delta', { index: block.index, delta });
      this.heldChars -= deltaSize(delta);
    }
    block.held = [];
  }

  private closeFirst(): void {
    const block = this.pending.shift();
    if (block === undefined) return;
    block.closed = true;
    this.emit('content_block_stop', { index: block.index });
  }
}

function deltaSize(delta: Record<string, unknown>): number {
  const value = delta.text ?? delta.thinking ?? delta.signature ?? delta.partial_json;
  return typeof value === 'string' ? value.length : 0;
}
