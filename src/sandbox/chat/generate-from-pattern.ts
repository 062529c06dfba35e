/**
 * A best-effort generator of strings matching a JSON Schema `pattern`: it understands the
 * usual building blocks (literals, `.`, classes and ranges, `\d \w \s`, groups, `|`,
 * quantifiers, anchors) and checks every result with the real RegExp. Patterns it cannot
 * satisfy yield undefined, and the caller falls back to plain text. Bounded: long patterns are
 * not parsed, a pattern whose shortest match is longer than MAX_STRING_LENGTH throws a
 * GenerationLimitError, and no candidate grows past the length allowed.
 */
import type { Prng } from '../shared/prng.js';
import { GenerationLimitError, MAX_PATTERN_LENGTH, MAX_STRING_LENGTH } from './generation-limits.js';

type Node =
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; node: Node; min: number; max: number }
  | { kind: 'chars'; chars: string }
  | { kind: 'empty' };

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const WORD = `${LOWER}${UPPER}${DIGITS}_`;
const SPACE = ' ';
/** Printable ASCII, the pool negated classes choose from. */
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
/** How far past its minimum an open-ended quantifier repeats. */
const OPEN_REPEAT = 3;
/** Characters all the classes of one pattern may list together (ranges are expanded). */
const MAX_CLASS_CHARS = 100_000;

class Unsupported extends Error {}
/** A candidate outgrew the length allowed. */
class TooLong extends Error {}

function without(pool: string, excluded: string): string {
  let out = '';
  for (const ch of pool) if (!excluded.includes(ch)) out += ch;
  return out;
}

function classEscape(ch: string): string | undefined {
  switch (ch) {
    case 'd':
      return DIGITS;
    case 'w':
      return WORD;
    case 's':
      return SPACE;
    case 'D':
      return without(PRINTABLE, DIGITS);
    case 'W':
      return without(PRINTABLE, WORD);
    case 'S':
      return without(PRINTABLE, ' ');
    default:
      return undefined;
  }
}

function literalEscape(ch: string): string {
  if (ch === 'n') return '\n';
  if (ch === 't') return '\t';
  if (ch === 'r') return '\r';
  if (ch === 'b' || ch === 'B' || /[1-9kpPuxc]/.test(ch)) throw new Unsupported(`\\${ch}`);
  return ch;
}

const QUANTIFIER = /\{(\d+)(,(\d*))?\}/y;

class Parser {
  private pos = 0;
  private classChars = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.pos < this.src.length) throw new Unsupported('trailing input');
    return node;
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.src[this.pos] === '|') {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0] : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.pos < this.src.length && this.src[this.pos] !== '|' && this.src[this.pos] !== ')') {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return { kind: 'seq', items };
  }

  private atom(): Node {
    const ch = this.src[this.pos++];
    switch (ch) {
      case '^':
      case '$':
        return { kind: 'empty' };
      case '.':
        return { kind: 'chars', chars: `${LOWER}${DIGITS}` };
      case '(': {
        if (this.src[this.pos] === '?') {
          if (this.src[this.pos + 1] !== ':') throw new Unsupported('lookaround or named group');
          this.pos += 2;
        }
        const inner = this.alternation();
        if (this.src[this.pos++] !== ')') throw new Unsupported('unclosed group');
        return inner;
      }
      case '[':
        return this.charClass();
      case '\\': {
        const next = this.src[this.pos++];
        if (next === undefined) throw new Unsupported('dangling escape');
        const set = classEscape(next);
        return { kind: 'chars', chars: set ?? literalEscape(next) };
      }
      case '*':
      case '+':
      case '?':
      case '{':
        throw new Unsupported('quantifier without atom');
      default:
        return { kind: 'chars', chars: ch };
    }
  }

  private charClass(): Node {
    let negated = false;
    if (this.src[this.pos] === '^') {
      negated = true;
      this.pos++;
    }
    let chars = '';
    while (this.pos < this.src.length && this.src[this.pos] !== ']') {
      let ch = this.src[this.pos++];
      if (ch === '\\') {
        const next = this.src[this.pos++];
        const set = next === undefined ? undefined : classEscape(next);
        if (set) {
          chars += set;
          continue;
        }
        ch = literalEscape(next ?? '\\');
      }
      if (this.src[this.pos] === '-' && this.src[this.pos + 1] !== undefined && this.src[this.pos + 1] !== ']') {
        let end = this.src[this.pos + 1];
        this.pos += 2;
        if (end === '\\') end = literalEscape(this.src[this.pos++] ?? '\\');
        const from = ch.codePointAt(0) ?? 0;
        const to = end.codePointAt(0) ?? 0;
        if (to < from || to - from > 0xffff) throw new Unsupported('bad range');
        this.classChars += to - from + 1;
        if (this.classChars > MAX_CLASS_CHARS) throw new Unsupported('classes too large');
        for (let c = from; c <= to; c++) chars += String.fromCodePoint(c);
      } else {
        chars += ch;
      }
    }
    if (this.src[this.pos++] !== ']') throw new Unsupported('unclosed class');
    if (negated) chars = without(PRINTABLE, chars);
    if (chars.length === 0) throw new Unsupported('empty class');
    return { kind: 'chars', chars };
  }

  private quantified(atom: Node): Node {
    const ch = this.src[this.pos];
    let min: number;
    let max: number;
    if (ch === '*') [min, max] = [0, Infinity];
    else if (ch === '+') [min, max] = [1, Infinity];
    else if (ch === '?') [min, max] = [0, 1];
    else if (ch === '{') {
      QUANTIFIER.lastIndex = this.pos;
      const match = QUANTIFIER.exec(this.src);
      if (!match) return atom;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      this.pos += match[0].length - 1;
    } else return atom;
    this.pos++;
    if (this.src[this.pos] === '?') this.pos++;
    return { kind: 'repeat', node: atom, min, max };
  }
}

/** The length of the shortest string the tree can produce (saturating, so huge counts stay finite). */
function shortest(node: Node): number {
  switch (node.kind) {
    case 'empty':
      return 0;
    case 'chars':
      return 1;
    case 'seq':
      return Math.min(
        Number.MAX_SAFE_INTEGER,
        node.items.reduce((sum, item) => sum + shortest(item), 0),
      );
    case 'alt':
      return Math.min(...node.options.map(shortest));
    case 'repeat': {
      const inner = shortest(node.node);
      return node.min === 0 || inner === 0 ? 0 : Math.min(Number.MAX_SAFE_INTEGER, node.min * inner);
    }
  }
}

interface Output {
  chars: string[];
  /** Characters still allowed. */
  room: number;
  /** Nodes still allowed to be visited (a repeated empty group emits nothing, but costs). */
  steps: number;
}

function emit(node: Node, rng: Prng, out: Output): void {
  if (--out.steps < 0) throw new TooLong();
  switch (node.kind) {
    case 'empty':
      return;
    case 'chars':
      if (--out.room < 0) throw new TooLong();
      out.chars.push(node.chars.length === 1 ? node.chars : node.chars[rng.int(0, node.chars.length - 1)]);
      return;
    case 'seq':
      for (const item of node.items) emit(item, rng, out);
      return;
    case 'alt':
      emit(rng.pick(node.options), rng, out);
      return;
    case 'repeat': {
      const times = rng.int(node.min, Math.min(node.max, node.min + OPEN_REPEAT));
      for (let i = 0; i < times; i++) emit(node.node, rng, out);
    }
  }
}

function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}

const FALLBACKS = ['sandbox', 'abc', 'ABC', 'Abc', '123', 'abc123', 'a1', 'sandbox-1', 'sandbox_1', 'A1', 'x', '0'];

export interface LengthBounds {
  min: number;
  max: number;
}

function parse(pattern: string): Node | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return undefined;
  try {
    return new Parser(pattern).parse();
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    return undefined;
  }
}

/**
 * A string matching `pattern` within the length bounds, or undefined when none was found.
 * Throws a GenerationLimitError when every match is longer than the sandbox generates.
 */
export function generateFromPattern(pattern: string, rng: Prng, length: LengthBounds): string | undefined {
  const regex = compile(pattern);
  if (!regex) return undefined;
  const longest = Math.min(length.max, MAX_STRING_LENGTH);
  const fits = (s: string): boolean => {
    const n = [...s].length;
    return n >= length.min && n <= longest && regex.test(s);
  };
  const tree = parse(pattern);
  if (tree) {
    const needed = shortest(tree);
    if (needed > MAX_STRING_LENGTH) {
      throw new GenerationLimitError(
        `the pattern needs at least ${needed} characters, more than the ${MAX_STRING_LENGTH} the sandbox generates in a string`,
        '',
      );
    }
    for (let attempt = 0; attempt < 8; attempt++) {
      const out: Output = { chars: [], room: longest, steps: 4 * longest + 1_000 };
      try {
        emit(tree, rng, out);
      } catch (error) {
        if (error instanceof TooLong) continue;
        throw error;
      }
      const candidate = out.chars.join('');
      if (fits(candidate)) return candidate;
    }
  }
  return FALLBACKS.find(fits);
}
