import type { LightMyRequestResponse } from 'fastify';
import { ErrorCode } from '@classwave/shared';

/**
 * Building blocks for hostile-input tests: a seeded generator, pools of odd values and strings,
 * and the checks every answer to a hostile request must pass.
 */

/** mulberry32: small, fast and deterministic, so a failing case can be replayed from its seed. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    uuid: () =>
      'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () => Math.floor(next() * 16).toString(16)),
  };
}
export type SeededRandom = ReturnType<typeof seededRandom>;

/** Text that is valid but unusual: each must be stored and returned exactly as sent. */
export const ODD_TEXT: Record<string, string> = {
  'right-to-left override': 'abc\u202Edcba\u202C',
  'left-to-right override': '\u202Dx\u202C',
  'zero-width characters': 'a\u200B\u200C\u200D\u2060b',
  'a byte-order mark': 'a\uFEFFb',
  emoji: '👩🏽‍🏫 🇺🇦 🎓',
  'combining marks': 'e\u0301\u0301\u0301\u0301',
  'control characters': '\u0001\u0007\u001B[31m',
  'DEL and C1 controls': '\u007F\u0085\u009B',
  'line and paragraph separators': 'a\u2028b\u2029c',
  noncharacters: '\uFFFE\uFFFF',
  'astral letters': '𝕳𝖊𝖑𝖑𝖔',
  'private use': '\uE000\u{F0000}',
  'fullwidth letters': 'ｔｉｔｌｅ',
  'a Hangul filler': 'a\u3164b',
  'tag characters': '\u{E0041}\u{E007F}',
  'a CRLF header injection': 'x\r\nSet-Cookie: pwned=1',
};

/** Not well-formed text: a server must refuse it rather than store something else. */
export const BROKEN_TEXT: Record<string, string> = {
  'a lone high surrogate': 'a\uD800b',
  'a lone low surrogate': 'a\uDFFFb',
  'reversed surrogates': '\uDC00\uD800',
  'a NUL character': 'a\u0000b',
};

/** Text that looks like code: valid titles, descriptions and answers, stored verbatim. */
export const CODE_LIKE_TEXT: Record<string, string> = {
  'SQL comment injection': "'; DROP TABLE courses; --",
  'SQL tautology': "' OR '1'='1' --",
  'SQL stacked sleep': '1); SELECT pg_sleep(10); --',
  'SQL dollar quoting': '$1 $$ $tag$ x $tag$',
  'SQL LIKE wildcards': "%' OR 1=1 --",
  'a script tag': '<script>alert(1)</script>',
  'an img onerror': '<img src=x onerror="window.__pwned=1">',
  'an svg onload': '"><svg/onload=alert(1)>',
  'bold markup': '<b>bold</b>',
  'template syntax': '{{7*7}} ${7*7} #{7*7}',
  'a javascript: URL': 'javascript:alert(document.cookie)',
  'a path traversal': '../../../../etc/passwd',
  'an encoded traversal': '%2e%2e%2f%00',
  'JSON in a string': '{"__proto__":{"polluted":"yes"}}',
};

/** Edge values for formatted strings, by format: each must be judged without a 5xx. */
export const ODD_FORMATTED: Record<string, string[]> = {
  'date-time': [
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '0999-12-31T23:59:59Z',
    '9999-12-31T23:59:59Z',
    '9999-12-31T23:59:59-23:59',
    '2016-12-31T23:59:60Z',
    '2024-02-30T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T00:00:00+24:00',
    '2024-01-01T00:00:00.123456789Z',
    '2024-01-01t00:00:00z',
    '2024-01-01 00:00:00Z',
    '2024-01-01',
    '1970-01-01T00:00:00Z',
    '+275760-09-13T00:00:00Z',
    '-000001-01-01T00:00:00Z',
  ],
  email: [
    'a@b',
    '"quoted local"@school.test',
    'a+tag@school.test',
    'UPPER@SCHOOL.TEST',
    'x@[127.0.0.1]',
    'x@localhost',
    `${'a'.repeat(64)}@school.test`,
    `${'a'.repeat(65)}@school.test`,
    'ü@school.test',
    'a@xn--bcher-kva.test',
    ' a@school.test',
    'a@school.test\n',
    'a@school.test,b@school.test',
  ],
  uri: [
    'javascript:alert(1)',
    'http://localhost:5173@evil.example/login',
    'http://localhost:5173.evil.example/login',
    '//evil.example/login',
    'http://localhost:5173/login?next=//evil.example',
    'http://localhost:5173\\@evil.example/',
    'data:text/html,<script>alert(1)</script>',
    'HTTP://LOCALHOST:5173/login',
    'http://localhost:5173:80/login',
    'file:///etc/passwd',
    'http://[::1]:5173/login',
  ],
  uuid: [
    '00000000-0000-0000-0000-000000000000',
    'urn:uuid:00000000-0000-0000-0000-000000000000',
    '{00000000-0000-0000-0000-000000000000}',
    '00000000000000000000000000000000',
    'ZZZZZZZZ-0000-0000-0000-000000000000',
    '00000000-0000-0000-0000-00000000000',
  ],
};

/** Values of every JSON type, for fields that expect one in particular. */
export const WRONG_TYPES: readonly unknown[] = [
  12345,
  -1,
  0,
  1.5,
  1e308,
  true,
  false,
  null,
  [],
  ['x'],
  {},
  { $gt: '' },
  '',
  ' ',
  'x',
  '5',
];

/** Keys a client might add hoping they are written. */
export const EXTRA_KEYS = [
  'isAdmin',
  'role',
  'teacherId',
  'studentId',
  'grade',
  'id',
  'createdAt',
  'userId',
  'emailConfirmedAt',
  '$where',
  'title ',
  '',
];

/** Bodies that are not JSON at all. */
export const MALFORMED_JSON = [
  '{',
  '{"a":',
  "{'a':1}",
  '{"a":1,}',
  '[1,2',
  'NaN',
  'undefined',
  '{"a":01}',
  '{"a" 1}',
  '{"a":"\u0001"}',
  '{"a":1}}',
  '\u0000',
  '',
  '   ',
];

/** Content-Type headers: JSON by any spelling, odd ones, and ones that are not JSON (or none). */
export const CONTENT_TYPES = {
  json: ['application/json', 'application/json;charset=UTF-8', 'Application/JSON; Charset=UTF-8'],
  odd: [
    'application/json\t',
    ' application/json',
    'application/json ; charset=utf-8',
    'application/json\tx',
    'application/json,text/plain',
    'application/json; charset=latin1',
  ],
  refused: [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=fuzz',
    'application/xml',
    'application/jsonx',
    'application/vnd.api+json',
    '',
    null,
  ],
};

/** Path segments where an id belongs, none of them an id: traversal, encodings, injections. */
export const ODD_IDS = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '%00',
  '..%2F..%2Fhealth',
  '%2e%2e%2f%2e%2e%2fhealth',
  '..%252f..%252fhealth',
  '%c0%ae%c0%ae%c0%af',
  '..%5c..%5chealth',
  '%zz',
  '%',
  encodeURIComponent("' OR 1=1 --"),
  encodeURIComponent('<script>alert(1)</script>'),
  'x'.repeat(300),
  encodeURIComponent('\u202E'),
  encodeURIComponent('👩🏽‍🏫'),
  '-1',
  'null',
  '%20',
];
/** What goes before and after a real id to make it not one. */
export const WRAPPED_IDS: Array<[string, string]> = [
  ['urn:uuid:', ''],
  ['%7B', '%7D'],
  ['', '%00'],
  ['', '%20'],
  ['%20', ''],
  ['', '/extra'],
  ['', '%2F..%2F..%2Fhealth'],
  ['', ';drop'],
];

/** Query strings no route asked for: arrays, repeats, huge, encoded oddities, prototype keys. */
export const ODD_QUERIES = [
  'a=1&a=2&a[]=3',
  `${'k'.repeat(5000)}=1`,
  Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join('&'),
  '%zz=1',
  'x=%00',
  'x=%E2%80%AE',
  `x=${encodeURIComponent('<script>alert(1)</script>')}`,
  `x=${encodeURIComponent("' OR 1=1 --")}`,
  'x=../../../etc/passwd',
  '=&=&',
  '&&&',
  '?',
  '__proto__[polluted]=yes',
  'constructor[prototype][polluted]=yes',
  '__proto__.polluted=yes',
  '__proto__=yes',
];

/** A JSON text nested `depth` deep: an array, or an object under key "a". */
export const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
export const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const ERROR_CODES = new Set<string>(Object.values(ErrorCode));

const LEAKS: Array<[string, RegExp]> = [
  ['an argon2 hash', /\$argon2/],
  ['a JWT', /eyJ[\w-]{8,}\.[\w-]{8,}/],
  ['a stack frame', /\bat [^\s()]+ \([^)]*:\d+:\d+\)|\.(?:ts|js|mjs|cjs):\d+:\d+/],
  ['a file path', /\/work\/|\/home\/|\/usr\/|node_modules|file:\/\//],
];
const SQL_LEAKS: Array<[string, RegExp]> = [
  ['SQL text', /\b(?:select|insert|update|delete)\b[\s\S]{0,200}\b(?:from|into|set|where)\b/i],
  [
    'a database error',
    /syntax error|violates|duplicate key|relation "|column "|invalid input syntax|drizzle|pglite|postgres|constraint|sqlstate/i,
  ],
];

/**
 * What every answer to a hostile request must be: never a 5xx; a redirect only to the app's
 * own origin (or one named in `alsoTo`); an error in the documented shape with its status repeated and a stable code; and
 * nothing internal (hashes, tokens, stack traces, paths, SQL) in the body or the headers.
 * Returns the problems found (empty when the answer is fine).
 */
export function problemsWith(
  res: LightMyRequestResponse,
  appOrigin: string,
  /** Other origins a redirect may go to: the school's OpenID provider (DESIGN §20). */
  alsoTo: string[] = [],
): string[] {
  const problems: string[] = [];
  const status = res.statusCode;
  if (status >= 500) problems.push(`answered ${status}`);
  if (status >= 300 && status < 400) {
    const location = String(res.headers.location ?? '');
    if (![appOrigin, ...alsoTo].some((origin) => location.startsWith(`${origin}/`)))
      problems.push(`redirects off the app: ${location}`);
  }
  let scanned = res.body;
  if (status >= 400) {
    let body: unknown;
    try {
      body = res.json();
    } catch {
      problems.push(`error body is not JSON: ${res.body.slice(0, 100)}`);
    }
    if (!String(res.headers['content-type']).startsWith('application/json'))
      problems.push(`error content-type ${String(res.headers['content-type'])}`);
    const error = body as Record<string, unknown> | undefined;
    if (error) {
      const keys = Object.keys(error).sort().join(',');
      // The documented extras: a grade conflict carries the grade as it stands (DESIGN §13), a draft
      // conflict the newer draft (DESIGN §12); every other error is the bare shape.
      const expectedKeys =
        error.code === 'grade_conflict'
          ? 'code,current,error,message,statusCode'
          : error.code === 'draft_conflict'
            ? 'code,content,error,message,statusCode,version'
            : 'code,error,message,statusCode';
      if (keys !== expectedKeys) problems.push(`error keys ${keys}`);
      if (error.statusCode !== status) problems.push(`statusCode ${String(error.statusCode)} ≠ ${status}`);
      const code = String(error.code);
      if (!ERROR_CODES.has(code)) problems.push(`unknown code ${code}`);
      if (typeof error.error !== 'string' || typeof error.message !== 'string')
        problems.push('error or message is not text');
    }
    for (const [what, pattern] of SQL_LEAKS) if (pattern.test(res.body)) problems.push(`leaks ${what}`);
  } else if (status < 300 && res.body.startsWith('{')) {
    // A session's own access token is the one JWT a successful answer may carry.
    scanned = res.body.replace(/"accessToken":"[^"]*"/g, '"accessToken":"…"');
  }
  for (const [what, pattern] of LEAKS) if (pattern.test(scanned)) problems.push(`leaks ${what}`);
  const headers = JSON.stringify(res.headers);
  for (const [what, pattern] of LEAKS.slice(2))
    if (pattern.test(headers)) problems.push(`header leaks ${what}`);
  if (res.headers['x-powered-by']) problems.push('x-powered-by header');
  return problems;
}

/** Whether anything was written onto Object.prototype (by a `__proto__` key that got through). */
export function prototypePolluted(): string | undefined {
  const keys = Object.getOwnPropertyNames(Object.prototype).filter((k) => !BUILTIN_PROTOTYPE_KEYS.has(k));
  if (keys.length > 0) return keys.join(', ');
  if (({} as Record<string, unknown>).polluted !== undefined) return 'polluted';
  return undefined;
}
const BUILTIN_PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));
