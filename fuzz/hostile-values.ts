/**
 * Hostile JSON values, as raw JSON text (so that they can hold what JSON.stringify cannot
 * produce: lone surrogates, nesting deeper than the fuzzer's own stack, numbers beyond a double).
 */
import type { Random } from './random.js';

const json = (value: unknown): string => JSON.stringify(value);

function deepArrays(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

function deepObjects(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function longString(random: Random, length: number): string {
  const unit = random.pick(['a', 'é', '😀', '\u0000', ' ', 'word ', '\u202e', 'a\u0301\u0301\u0301']);
  return json(unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
}

const EXTREME_NUMBERS = [
  '0',
  '-0',
  '-1',
  '1.5',
  '1e308',
  '-1e308',
  '1e309',
  '5e-324',
  '9007199254740993',
  '2147483648',
  '-2147483649',
  '4294967296',
  '1e21',
  `1${'0'.repeat(400)}`,
  '0.1e-400',
  '123456789.123456789e-5',
];

const ODD_STRINGS = [
  '""',
  '" "',
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"\\uffff\\ufffe"',
  '"\\u202eevil"',
  '"😀"',
  '"NaN"',
  '"Infinity"',
  '"-1"',
  '"1e999"',
  '"true"',
  '"null"',
  '"__proto__"',
  '"../../etc/passwd"',
  '"%s%s%s%n"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, meant literally
  '"${jndi:ldap://127.0.0.1/a}"',
  '"<script>alert(1)</script>"',
  '"data:image/png;base64,"',
  '"data:;base64,AAAA"',
  '"http://127.0.0.1:1/x.png"',
  '"http://[::1]/x.png"',
  '"http://169.254.169.254/latest/meta-data"',
  '"file:///etc/passwd"',
  '"gopher://127.0.0.1:25/"',
  '"http://0x7f000001/"',
  '"textmodel-b-4o-mini"',
  '"models/textmodel-c-2.0-flash"',
  // Path-character model ids (issue 23, finding 2): refused before any upstream URL is built.
  '"textmodel-c-2.5-flash/../gemini-2.5-pro"',
  '"x/../y"',
  '"x%2F..%2Fy"',
  '"x%2e%2e"',
  '"x\\\\..\\\\y"',
  '"x?y"',
  '"x#y"',
  '".."',
  // Control characters in model ids and admin cursors the database would refuse (issue 23, findings 1 and 13).
  '"gemini-x\\u0000y"',
  '"textmodel-b-4o-mini\\u001b[31m"',
  '"gemini-x\\u007f\\u0085"',
  `"${Buffer.from('[1.5,"x"]').toString('base64url')}"`,
  `"${Buffer.from('[1e308,"x"]').toString('base64url')}"`,
  `"${Buffer.from('[1,"x\\u0000"]').toString('base64url')}"`,
  '"user"',
  '"assistant"',
  '"system"',
  '"tool"',
  '"image/png"',
  '"base64"',
];

const ODD_SHAPES = [
  'null',
  'true',
  'false',
  '[]',
  '{}',
  '[null]',
  '[[]]',
  '[{}]',
  '{"":null}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"type":null}',
  '{"type":"text","text":null}',
  '[1,"a",null,{},[]]',
];

/** One hostile value; `maxBytes` bounds the largest ones. */
export function hostileValue(random: Random, maxBytes: number): { text: string; kind: string } {
  const roll = random.int(0, 9);
  switch (roll) {
    case 0:
    case 1:
      return { text: random.pick(EXTREME_NUMBERS), kind: 'extreme number' };
    case 2:
    case 3:
      return { text: random.pick(ODD_STRINGS), kind: 'odd string' };
    case 4:
    case 5:
      return { text: random.pick(ODD_SHAPES), kind: 'wrong type' };
    case 6:
      return { text: longString(random, Math.min(maxBytes, random.pick([1_000, 10_000, 100_000, 1_000_000]))), kind: 'long string' };
    case 7: {
      const length = Math.min(Math.floor(maxBytes / 8), random.pick([1_000, 10_000, 100_000]));
      const item = random.pick(['0', '"x"', '{}', 'null', '{"type":"text","text":"a"}', '{"role":"user","content":"a"}']);
      return { text: `[${Array.from({ length }, () => item).join(',')}]`, kind: 'long array' };
    }
    case 8: {
      const count = Math.min(Math.floor(maxBytes / 12), random.pick([1_000, 10_000, 50_000]));
      return { text: `{${Array.from({ length: count }, (_, i) => `"k${i}":${i}`).join(',')}}`, kind: 'many keys' };
    }
    default: {
      const depth = Math.min(Math.floor(maxBytes / 6), random.pick([64, 500, 5_000, 50_000, 200_000]));
      return { text: random.chance(0.5) ? deepArrays(depth) : deepObjects(depth), kind: 'deep nesting' };
    }
  }
}

/** Whole bodies that are not JSON, or JSON that no route takes. */
export function malformedBody(random: Random, valid: string): { body: Buffer; kind: string } {
  const cut = () => valid.slice(0, random.int(0, Math.max(0, valid.length - 1)));
  const choices: Array<() => string | Buffer> = [
    () => '',
    () => ' ',
    () => 'null',
    () => '[]',
    () => '"a string"',
    () => '12345',
    () => '{',
    () => '}',
    () => cut(),
    () => `${valid}}}}`,
    () => `${valid}\n{"model":1}`,
    () => `\ufeff${valid}`,
    () => valid.replace(/"/g, "'"),
    () => valid.replace('{', '{"model":"a","model":"b",'),
    () => valid.replace('{', '{/* comment */'),
    () => valid.replace(/:/, ':NaN,"x":'),
    () => valid.replace(/,/g, ',,'),
    () => Buffer.concat([Buffer.from(valid.slice(0, 10)), Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80]), Buffer.from(valid.slice(10))]),
    () => Buffer.from(valid, 'utf16le'),
    () => Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]),
    () => `{"a":${'['.repeat(100_000)}`,
    () => 'model=textmodel-b-4o-mini&messages=hi',
  ];
  const body = random.pick(choices)();
  return { body: typeof body === 'string' ? Buffer.from(body) : body, kind: 'malformed JSON' };
}
