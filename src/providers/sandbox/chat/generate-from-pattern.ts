/**
 * A best-effort generator of strings matching a JSON Schema `pattern`: it understands the
 * usual building blocks (literals, `.`, classes and ranges, `\d \w \s`, groups, `|`,
 * quantifiers, anchors) and checks every result with the real RegExp. Patterns it cannot
 * satisfy yield undefined, and the caller falls back to plain text.
 */
import type { Prng } from '../shared/prng.js';

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

class Unsupported extends Error {}

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

class Parser {
  private pos = 0;
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
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
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

function emit(node: Node, rng: Prng, out: string[]): void {
  switch (node.kind) {
    case 'empty':
      return;
    case 'chars':
      out.push(node.chars.length === 1 ? node.chars : node.chars[rng.int(0, node.chars.length - 1)]);
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

/** A string matching `pattern` within the length bounds, or undefined when none was found. */
export function generateFromPattern(pattern: string, rng: Prng, length: LengthBounds): string | undefined {
  const regex = compile(pattern);
  if (!regex) return undefined;
  const fits = (s: string): boolean => {
    const n = [...s].length;
    return n >= length.min && n <= length.max && regex.test(s);
  };
  let tree: Node | undefined;
  try {
    tree = new Parser(pattern).parse();
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
  }
  if (tree) {
    for (let attempt = 0; attempt < 8; attempt++) {
      const out: string[] = [];
      emit(tree, rng, out);
      const candidate = out.join('');
      if (fits(candidate)) return candidate;
    }
  }
  return FALLBACKS.find(fits);
}
