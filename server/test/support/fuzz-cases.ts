import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ROSTER_MAX_BYTES } from '@classwave/shared';
import {
  BROKEN_TEXT,
  CODE_LIKE_TEXT,
  CONTENT_TYPES,
  deepArray,
  deepObject,
  EXTRA_KEYS,
  MALFORMED_JSON,
  ODD_FORMATTED,
  ODD_IDS,
  ODD_QUERIES,
  ODD_TEXT,
  WRAPPED_IDS,
  WRONG_TYPES,
  type SeededRandom,
} from './hostile.js';

/**
 * The hostile cases fuzz.test.ts sends to each route, by category, derived from the route's
 * OpenAPI description (so a new route or field is covered without a change here). The route's
 * documented schema is the oracle: a body it refuses must be refused with a 400.
 */

export type JsonSchema = {
  type?: string;
  description?: string;
  format?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
};
interface Operation {
  parameters?: Array<{ in: string; name: string; schema: JsonSchema; description?: string }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  security?: unknown[];
}
export interface Route {
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The OpenAPI path, e.g. /api/courses/{id}. */
  path: string;
  secured: boolean;
  body: JsonSchema | undefined;
  query: Array<{ name: string; schema: JsonSchema; description?: string }>;
}

/** Every operation of an OpenAPI document. */
export function routesOf(doc: { paths: Record<string, Record<string, Operation>> }): Route[] {
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, op]) => ({
      key: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
      method: method.toUpperCase() as Route['method'],
      path,
      secured: (op.security ?? []).length > 0,
      body: op.requestBody?.content['application/json']?.schema,
      query: (op.parameters ?? []).filter((p) => p.in === 'query'),
    })),
  );
}

export type Json = Record<string, unknown>;
export interface Attempt {
  /** The raw path segment for {id}, or how to make it from the real id; the real id when absent. */
  id?: string | ((real: string) => string);
  /** The same for {studentId} (the grade and roster routes' second param). */
  studentId?: string | ((real: string) => string);
  /** The same for {userId} (a co-teacher of the course, DESIGN §20). */
  userId?: string | ((real: string) => string);
  /** The same for {inviteId} (an open co-teacher invitation of the course, DESIGN §20). */
  inviteId?: string | ((real: string) => string);
  /** The same for {token} (a co-teacher invitation's mailed token). */
  token?: string | ((real: string) => string);
  /** The raw query string; the route's valid one when absent. `{state}`, `{iss}`: the context's OIDC state, the provider. */
  query?: string;
  /** The raw body text; the valid body as JSON when absent; none when null. */
  body?: string | null;
  /** The Content-Type header: application/json when absent, none when null. */
  contentType?: string | null;
  /** accept: a 2xx (or a redirect to the app); reject: a 4xx; any: either, but never a 5xx. */
  expect: 'accept' | 'reject' | 'any';
  status?: number;
  /** A word the refusal's message must contain (the field at fault). */
  mentions?: string;
  /** Fields a success must return (and a later read must show) exactly as sent. */
  verbatim?: Record<string, string>;
  /** Where a redirect must go: a path (and query) on the app. */
  lands?: string;
}
export interface Case {
  name: string;
  /** Builds the request, given a maker of fresh valid bodies (undefined for routes without one). */
  attempt: (valid: () => Json | undefined) => Attempt;
}

/**
 * Fields with meaning beyond text: a password or a link's token must match, a join code must name a
 * course (404 otherwise), a course code is upper-cased and unique among the teacher's courses, a
 * reported time zone must be an IANA one (400 naming timeZone otherwise).
 */
const SEMANTIC = new Set([
  'POST /api/courses/join code',
  'POST /api/courses code',
  'PATCH /api/courses/:id code',
  'POST /api/courses/:id/copy code',
  'PUT /api/me/time-zone timeZone',
]);
const isSemantic = (route: Route, name: string) =>
  /password|token/i.test(name) || SEMANTIC.has(`${route.key} ${name}`);

/** Fields that take free text: no format or choice, and no semantics. */
export const textFields = (route: Route) =>
  Object.entries(route.body?.properties ?? {})
    .filter(([name, s]) => s.type === 'string' && !s.format && !s.enum && !isSemantic(route, name))
    .map(([name, s]) => ({ name, maxLength: s.maxLength }));
const stringFields = (route: Route) =>
  Object.entries(route.body?.properties ?? {})
    .filter(([, s]) => s.type === 'string' || (s.anyOf ?? []).some((a) => a.type === 'string'))
    .map(([name, s]) => ({ name, format: s.format }));
const fieldsOf = (route: Route) => Object.keys(route.body?.properties ?? {});

const ajv = new Ajv({ strict: false, allErrors: false });
addFormats.default(ajv);
const validators = new Map<string, ValidateFunction>();
function documentedValid(route: Route, body: unknown): boolean {
  if (!route.body) return true;
  if (!validators.has(route.key)) validators.set(route.key, ajv.compile(route.body));
  return validators.get(route.key)!(structuredClone(body));
}

/** GET bodies are never read: for GET routes the body categories keep only this many cases. */
const GET_SAMPLE = 3;
const readsBody = (route: Route) => route.method !== 'GET';

/** What a body the server can parse deserves: judged by the documented schema. */
function byDocument(route: Route, body: unknown, validMeans: 'accept' | 'any', field?: string): Attempt {
  const text = JSON.stringify(body);
  if (!route.body) return { body: text, expect: 'any' };
  if (!documentedValid(route, body))
    return { body: text, expect: 'reject', status: 400, ...(field ? { mentions: field } : {}) };
  return { body: text, expect: validMeans };
}
/** A JSON object text with `extra` spliced in before the valid body's own fields. */
function splice(valid: Json | undefined, extra: string): string {
  const rest = JSON.stringify(valid ?? {}).slice(1, -1);
  return `{${extra}${rest ? `,${rest}` : ''}}`;
}
/** A refusal where the body is read (with this status, if given), anything where it is not. */
const refusedIfRead = (route: Route, status?: number): Pick<Attempt, 'expect' | 'status'> =>
  readsBody(route) ? { expect: 'reject', ...(status ? { status } : {}) } : { expect: 'any' };
/** A 400 where the body is checked against a schema, anything where it is not. */
const refusedIfChecked = (route: Route): Pick<Attempt, 'expect' | 'status'> =>
  route.body ? { expect: 'reject', status: 400 } : { expect: 'any' };

const malformedJson = (route: Route): Case[] => [
  ...MALFORMED_JSON.map((body) => ({
    name: `malformed ${JSON.stringify(body)}`,
    attempt: () => ({ body, ...refusedIfRead(route, 400) }),
  })),
  // Where no schema reads the body, valid JSON of any shape is simply ignored: nothing to see.
  ...(route.body ? ['null', '[]', '"text"', '123', 'true', '[{}]'] : []).map((body) => ({
    name: `the JSON ${body}`,
    attempt: () => ({ body, ...refusedIfChecked(route) }),
  })),
  {
    name: 'a byte-order mark before valid JSON',
    attempt: (valid) => ({ body: `\uFEFF${JSON.stringify(valid() ?? {})}`, expect: 'any' }),
  },
];

const wrongTypes = (route: Route): Case[] =>
  fieldsOf(route).flatMap((field) =>
    WRONG_TYPES.map((value) => ({
      name: `${field} = ${JSON.stringify(value)}`,
      attempt: (valid: () => Json | undefined) =>
        byDocument(route, { ...valid(), [field]: value }, 'any', field),
    })),
  );

const missingAndExtra = (route: Route): Case[] => [
  { name: 'an empty object', attempt: () => byDocument(route, {}, 'any') },
  ...fieldsOf(route).map((field) => ({
    name: `without ${field}`,
    attempt: (valid: () => Json | undefined) => {
      const { [field]: _dropped, ...rest } = valid() ?? {};
      return byDocument(route, rest, 'any', field);
    },
  })),
  ...EXTRA_KEYS.map((key) => ({
    name: `with an extra ${JSON.stringify(key)}`,
    attempt: (valid: () => Json | undefined) =>
      byDocument(
        route,
        { ...valid(), [key]: key === 'role' ? 'teacher' : 'x' },
        'any',
        key.trim() || undefined,
      ),
  })),
];

/** Routes with a body limit of their own, above the app's: a roster's CSV files (DESIGN §20). */
const OWN_BODY_LIMITS: Record<string, number> = {
  'POST /api/courses/:id/roster-import': 2 * ROSTER_MAX_BYTES + 64 * 1024,
};

const hugeAndDeep = (route: Route): Case[] => {
  const text = stringFields(route)[0]?.name;
  const own = OWN_BODY_LIMITS[route.key];
  return [
    {
      name: 'a body over the size limit',
      attempt: (valid) => ({
        body: JSON.stringify({ ...valid(), padding: 'x'.repeat(own ? own + 1024 : 300 * 1024) }),
        ...refusedIfRead(route, 413),
      }),
    },
    ...(text
      ? [
          {
            name: `${text} over the size limit`,
            attempt: (valid: () => Json | undefined) => ({
              body: JSON.stringify({
                ...valid(),
                [text]: '\u00E9'.repeat(own ? own / 2 + 1024 : 200 * 1024),
              }),
              ...refusedIfRead(route, 413),
            }),
          },
        ]
      : []),
    {
      name: '20,000 keys',
      attempt: (valid) => ({
        body: splice(valid(), Array.from({ length: 20_000 }, (_, i) => `"k${i}":1`).join(',')),
        ...refusedIfChecked(route),
      }),
    },
    {
      name: 'an array nested 60,000 deep',
      attempt: () => ({ body: deepArray(60_000), ...refusedIfChecked(route) }),
    },
    {
      name: 'an object nested 40,000 deep',
      attempt: () => ({ body: deepObject(40_000), ...refusedIfChecked(route) }),
    },
    {
      name: 'a field holding an array nested 50,000 deep',
      attempt: (valid) => ({
        body: splice(valid(), `"nested":${deepArray(50_000)}`),
        ...refusedIfChecked(route),
      }),
    },
    {
      name: '50,000 numbers in an array',
      attempt: () => ({ body: `[${Array(50_000).fill(7).join(',')}]`, ...refusedIfChecked(route) }),
    },
  ];
};

const contentTypes = (route: Route): Case[] => {
  const kinds: Array<{ type: string | null; outcome: 'accept' | 'any' | 'reject' }> = [
    ...CONTENT_TYPES.json.map((type) => ({ type, outcome: 'accept' as const })),
    // Odd but arguably JSON: parsed as JSON or refused with 415, never let through unchecked.
    ...CONTENT_TYPES.odd.map((type) => ({ type, outcome: 'any' as const })),
    ...CONTENT_TYPES.refused.map((type) => ({ type, outcome: 'reject' as const })),
  ];
  const bodyAs = (type: string | null, valid: Json | undefined) =>
    type?.startsWith('multipart/')
      ? '--fuzz\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--fuzz--\r\n'
      : type === 'application/x-www-form-urlencoded'
        ? 'title=x&code=y'
        : JSON.stringify(valid ?? {});
  return kinds.flatMap(({ type, outcome }) => [
    {
      name: `a valid body as ${JSON.stringify(type)}`,
      attempt: (valid: () => Json | undefined) => ({
        contentType: type,
        body: bodyAs(type, valid()),
        ...(!readsBody(route)
          ? { expect: 'any' as const }
          : outcome === 'reject'
            ? { expect: outcome, status: 415 }
            : { expect: outcome }),
      }),
    },
    // Whatever the header says, a body the schema refuses must never get through (validation bypass).
    ...(route.body
      ? [
          {
            name: `an invalid body as ${JSON.stringify(type)}`,
            attempt: (valid: () => Json | undefined) => ({
              contentType: type,
              body: JSON.stringify({ ...valid(), isAdmin: true }),
              expect: 'reject' as const,
            }),
          },
        ]
      : []),
  ]);
};

const prototypeKeys = (route: Route): Case[] => {
  const polluting = [
    '"__proto__":{"polluted":"yes"}',
    '"constructor":{"prototype":{"polluted":"yes"}}',
    '"__proto__":null',
    '"\\u005f_proto__":{"polluted":"yes"}',
    '"__pro\\u0074o__":{"polluted":"yes"}',
  ];
  const refuse = refusedIfRead(route, 400);
  return [
    ...polluting.map((extra) => ({
      name: `top-level ${extra}`,
      attempt: (valid: () => Json | undefined) => ({ body: splice(valid(), extra), ...refuse }),
    })),
    ...polluting.slice(0, 2).flatMap((extra) => [
      {
        name: `nested ${extra}`,
        attempt: (valid: () => Json | undefined) => ({
          body: splice(valid(), `"outer":{"inner":{${extra}}}`),
          ...refuse,
        }),
      },
      {
        name: `in an array ${extra}`,
        attempt: (valid: () => Json | undefined) => ({
          body: splice(valid(), `"list":[1,{${extra}}]`),
          ...refuse,
        }),
      },
      ...fieldsOf(route)
        .slice(0, 2)
        .map((field) => ({
          name: `as ${field}: ${extra}`,
          attempt: (valid: () => Json | undefined) => {
            const { [field]: _replaced, ...rest } = valid() ?? {};
            return { body: splice(rest, `"${field}":{${extra}}`), ...refuse };
          },
        })),
    ]),
    {
      name: 'a prototype key',
      attempt: (valid) =>
        byDocument(route, { ...valid(), prototype: { polluted: 'yes' } }, 'any', 'prototype'),
    },
    {
      name: 'a constructor string',
      attempt: (valid) => byDocument(route, { ...valid(), constructor: 'x' }, 'any', 'constructor'),
    },
  ];
};

const oddText = (route: Route): Case[] => [
  ...textFields(route).flatMap(({ name }) =>
    Object.entries(ODD_TEXT).map(([what, piece]) => ({
      name: `${name} with ${what}`,
      attempt: (valid: () => Json | undefined) => {
        const value = `A${piece}Z`;
        const attempt = byDocument(route, { ...valid(), [name]: value }, 'accept', name);
        return attempt.expect === 'accept' ? { ...attempt, verbatim: { [name]: value } } : attempt;
      },
    })),
  ),
  ...textFields(route)
    .filter(({ maxLength }) => maxLength !== undefined && maxLength <= 10_000)
    .flatMap(({ name, maxLength }) => [
      {
        // A limit counts characters, not UTF-16 units: each emoji is one of them.
        name: `${name} of ${maxLength} emoji`,
        attempt: (valid: () => Json | undefined) => {
          const value = '🎓'.repeat(maxLength!);
          return {
            ...byDocument(route, { ...valid(), [name]: value }, 'accept', name),
            verbatim: { [name]: value },
          };
        },
      },
      {
        name: `${name} one character too long`,
        attempt: (valid: () => Json | undefined) =>
          byDocument(route, { ...valid(), [name]: 'x'.repeat(maxLength! + 1) }, 'any', name),
      },
    ]),
  // Text that is not well-formed is refused in any string field, formatted or free.
  ...stringFields(route).flatMap(({ name }) =>
    Object.entries(BROKEN_TEXT).map(([what, piece]) => ({
      name: `${name} with ${what}`,
      attempt: (valid: () => Json | undefined) => ({
        body: JSON.stringify({ ...valid(), [name]: `A${piece}Z` }),
        expect: 'reject' as const,
        status: 400,
        mentions: name,
      }),
    })),
  ),
];

// A password is opaque (hashed, never shown) and each one costs a deliberately slow hash: it gets
// the refusals above but not these.
const codeLikeText = (route: Route): Case[] =>
  stringFields(route)
    .filter(({ name }) => name !== 'password')
    .flatMap(({ name }) =>
      Object.entries(CODE_LIKE_TEXT).map(([what, value]) => ({
        name: `${name} with ${what}`,
        attempt: (valid: () => Json | undefined) => {
          const free = textFields(route).some((f) => f.name === name);
          const attempt = byDocument(route, { ...valid(), [name]: value }, free ? 'accept' : 'any', name);
          return attempt.expect === 'accept' ? { ...attempt, verbatim: { [name]: value } } : attempt;
        },
      })),
    );

const oddFormattedValues = (route: Route): Case[] =>
  stringFields(route)
    .filter(({ format }) => format !== undefined && ODD_FORMATTED[format])
    .flatMap(({ name, format }) =>
      ODD_FORMATTED[format!]!.map((value) => ({
        name: `${name} = ${JSON.stringify(value)}`,
        attempt: (valid: () => Json | undefined) =>
          byDocument(route, { ...valid(), [name]: value }, 'any', name),
      })),
    );

/** Odd values for one path param ({id} or {studentId}), the others left valid. */
const oddParam = (param: 'id' | 'studentId' | 'userId' | 'inviteId', random: SeededRandom): Case[] => {
  const named = (name: string) => (param === 'id' ? name : `${name} as ${param}`);
  const at = (value: string | ((real: string) => string)) => ({ [param]: value });
  return [
    ...ODD_IDS.map((id) => ({
      name: named(`the id ${id.slice(0, 40)}`),
      attempt: () => ({ ...at(id), expect: 'reject' as const }),
    })),
    {
      name: named('a random unknown uuid'),
      attempt: () => ({ ...at(random.uuid()), expect: 'reject' as const, status: 404 }),
    },
    ...WRAPPED_IDS.map(([before, after]) => ({
      name: named(`the real id as ${before}…${after}`),
      attempt: () => ({ ...at((real: string) => `${before}${real}${after}`), expect: 'reject' as const }),
    })),
    {
      name: named('the real id without dashes'),
      attempt: () => ({ ...at((real: string) => real.replaceAll('-', '')), expect: 'reject' as const }),
    },
    {
      name: named('the real id in upper case'),
      attempt: () => ({ ...at((real: string) => real.toUpperCase()), expect: 'any' as const }),
    },
    // Unencoded dot segments are resolved before routing, as a browser resolves them.
    ...['..', '.', '../health', './'].map((id) => ({
      name: named(`the raw path ${id}`),
      attempt: () => ({ ...at(id), expect: 'any' as const }),
    })),
  ];
};

const oddPathParams = (route: Route, random: SeededRandom): Case[] => [
  ...(route.path.includes('{id}') ? oddParam('id', random) : []),
  ...(route.path.includes('{studentId}') ? oddParam('studentId', random) : []),
  ...(route.path.includes('{userId}') ? oddParam('userId', random) : []),
  ...(route.path.includes('{inviteId}') ? oddParam('inviteId', random) : []),
];

const oddQueries = (route: Route): Case[] => [
  // A query string is parsed before the body is: where no query is declared and a body is read,
  // a broken body keeps the request cheap (no sign-up, no session spent) while the query is still parsed.
  ...ODD_QUERIES.map((query) => ({
    name: `?${query.slice(0, 40)}`,
    attempt: () => ({
      query,
      expect: 'any' as const,
      ...(route.query.length === 0 && readsBody(route) ? { body: '{' } : {}),
    }),
  })),
  ...route.query.flatMap(({ name, schema }) => {
    const integer = schema.type === 'integer';
    const invalid = integer
      ? ['abc', '-1', '1.5', 'NaN', '%00', '1%00', '', `1&${name}=2`, `[]=x&${name}[]=y`]
      : ['a'.repeat((schema.maxLength ?? 1000) + 1), `1&${name}=2`];
    // Infinity passes as an integer (ajv), and 'after' beyond the newest id asks for a resync: harmless.
    const odd = integer
      ? [
          '1e3',
          '1e22',
          '99999999999999999999',
          '9223372036854775808',
          '0x10',
          '-0',
          ' 1',
          '00001',
          'Infinity',
        ]
      : [
          '%00',
          '../../../etc/passwd',
          encodeURIComponent("' OR 1=1 --"),
          encodeURIComponent('<img src=x>'),
          '',
          'a%zz',
        ];
    return [
      ...invalid.map((value) => ({
        name: `${name}=${value.slice(0, 40)}`,
        attempt: () => ({ query: `${name}=${value}`, expect: 'reject' as const, status: 400 }),
      })),
      ...odd.map((value) => ({
        name: `${name}=${value}`,
        attempt: () => ({ query: `${name}=${value}`, expect: 'any' as const }),
      })),
    ];
  }),
];

const randomMutations = (route: Route, random: SeededRandom): Case[] => {
  const values = [...WRONG_TYPES, ...Object.values(ODD_TEXT), ...Object.values(CODE_LIKE_TEXT)];
  if (!route.body)
    return Array.from({ length: 8 }, (_, i) => ({
      name: `mutation ${i + 1}`,
      attempt: () => ({
        query: random.pick(ODD_QUERIES),
        ...(route.path.includes('{id}') && random.next() < 0.5
          ? { id: encodeURIComponent(String(random.pick(values))) }
          : {}),
        expect: 'any' as const,
      }),
    }));
  return Array.from({ length: 20 }, (_, i) => ({
    name: `mutation ${i + 1}`,
    attempt: (valid: () => Json | undefined) => {
      const body: Json = { ...valid() };
      const fields = fieldsOf(route);
      for (let n = 1 + random.int(3); n > 0; n--) {
        const roll = random.int(4);
        const field = random.pick(fields);
        if (roll === 0) delete body[field];
        else if (roll === 1) body[random.pick(EXTRA_KEYS)] = random.pick(values);
        else if (roll === 2 && random.next() < 0.3) body[field] = random.pick(Object.values(BROKEN_TEXT));
        else body[field] = random.pick(values);
      }
      const attempt = byDocument(route, body, 'any');
      // JSON.stringify escapes only NUL and lone surrogates among these: broken text, refused even
      // where the schema would take the string.
      return /\\u0000|\\ud[89a-f][0-9a-f]{2}/i.test(attempt.body ?? '')
        ? { ...attempt, expect: 'reject', status: 400 }
        : attempt;
    },
  }));
};

/** A rubric of one criterion with these levels' points (DESIGN §17). */
const rubricOf = (...points: unknown[]) => ({
  criteria: [{ title: 'Criterion', levels: points.map((p, i) => ({ title: `Level ${i}`, points: p })) }],
});
const UUID = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';

/**
 * Rubric bodies (DESIGN §17): what a schema can refuse is judged by the document; what only the
 * server knows (a total other than the assignment's 10 max points, scores for an assignment with no
 * rubric, prototype keys as criterion ids) must be a 400 naming the field all the same.
 */
const rubricBodies = (route: Route): Case[] => {
  const fields = fieldsOf(route);
  if (fields.includes('criteria'))
    return [
      ...[
        rubricOf(1e12),
        rubricOf('10'),
        rubricOf(10.5),
        rubricOf(-0.5),
        rubricOf(...Array.from({ length: 7 }, () => 1)),
        { criteria: [{ title: 'A', levels: [{ id: UUID, title: 'L', points: 10 }] }] },
        { criteria: [{ title: 'A', levels: {} }] },
        { criteria: [{ title: '\u200b', levels: [{ title: 'L', points: 10 }] }] },
        { criteria: Array.from({ length: 21 }, () => rubricOf(0).criteria[0]) },
        { criteria: [{ title: 'A'.repeat(201), levels: [{ title: 'L', points: 10 }] }] },
      ].map((body, i) => ({
        name: `rubric ${i + 1}: ${JSON.stringify(body).slice(0, 60)}`,
        attempt: () => byDocument(route, body, 'any', 'criteria'),
      })),
      {
        name: 'a rubric totalling 3 of 10 points',
        attempt: () => ({
          body: JSON.stringify(rubricOf(1, 3)),
          expect: 'reject',
          status: 400,
          mentions: 'criteria',
        }),
      },
      {
        name: 'a rubric totalling the max points',
        attempt: () => ({ body: JSON.stringify(rubricOf(0, 10)), expect: 'accept' }),
      },
    ];
  if (!fields.includes('rubric')) return [];
  const scores = (rubric: unknown, field = 'rubric'): Case => ({
    name: `scores ${JSON.stringify(rubric).slice(0, 60)}`,
    attempt: (valid) => byDocument(route, { ...valid(), rubric }, 'any', field),
  });
  return [
    scores([]),
    scores('all of them'),
    scores({ criterion: 'not-a-level-id' }),
    scores(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`c${i}`, UUID]))),
    // Schema-valid, but the context's assignment has no rubric to grade by.
    ...[{}, { [UUID]: UUID }, { constructor: UUID }, { toString: UUID }].map((rubric) => ({
      name: `scores for no rubric ${JSON.stringify(rubric).slice(0, 60)}`,
      attempt: (valid: () => Json | undefined) => ({
        body: JSON.stringify({ ...valid(), rubric }),
        expect: 'reject' as const,
        status: 400,
        mentions: 'rubric',
      }),
    })),
    {
      name: 'scores with a __proto__ key',
      attempt: (valid) => ({
        // The valid body's own `rubric` left out: a repeated key would win over the spliced one.
        body: splice({ ...valid(), rubric: undefined }, `"rubric":{"__proto__":"${UUID}"}`),
        ...refusedIfRead(route, 400),
      }),
    },
  ];
};

// ─── conversations (issue 27) ──────────────────────────────────────────────────────────────────
/** A `before` that is a cursor handed out by the server (the stream's pages), not a time. */
export const isCursor = (param: { schema: JsonSchema; description?: string }) =>
  `${param.description ?? ''} ${param.schema.description ?? ''}`.includes('nextBefore');

/** Cursors the server never handed out: each a 400 naming `before`, never a 500 or another page. */
const BAD_CURSORS = [
  'nope',
  encodeURIComponent(new Date().toISOString()),
  Buffer.from('2026-01-01T00:00:00.000Z').toString('base64url'),
  Buffer.from('2026-01-01T00:00:00.000Z|not-a-uuid').toString('base64url'),
  Buffer.from('2026-13-45T99:99:99.999Z|3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b').toString('base64url'),
  Buffer.from('0|3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b').toString('base64url'),
  Buffer.from("' OR 1=1 --|x|y").toString('base64url'),
  Buffer.from('\u0000\ud800|\u202e').toString('base64url'),
  '%2E%2E%2F',
];

/**
 * Posts and comments (DESIGN §19): plain text up to 10,000 characters stored as sent (HTML, right-
 * to-left and zero-width characters, controls), one more refused naming the limit; bad cursors.
 */
const conversationCases = (route: Route): Case[] => [
  ...textFields(route)
    .filter(({ name, maxLength }) => name === 'text' && maxLength === 10_000)
    .flatMap(({ name }) => [
      ...[
        ['HTML', '<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:x">y</a>'],
        ['right-to-left text', 'שלום \u202Eevil\u202C مرحبا'],
        ['zero-width characters', 'a\u200B\u200C\u200D\uFEFFb'],
        ['control characters and line breaks', 'line\u0001\u0007\u001B[31m\r\nnext\tline'],
        ['10,000 characters', 'x'.repeat(10_000)],
      ].map(([what, value]) => ({
        name: `${name}: ${what}`,
        attempt: (valid: () => Json | undefined) => ({
          body: JSON.stringify({ ...valid(), [name]: value }),
          expect: 'accept' as const,
          verbatim: { [name]: value! },
        }),
      })),
      {
        name: `${name}: 10,001 characters`,
        attempt: (valid: () => Json | undefined) => ({
          body: JSON.stringify({ ...valid(), [name]: 'x'.repeat(10_001) }),
          expect: 'reject' as const,
          status: 400,
          mentions: '10000',
        }),
      },
    ]),
  ...route.query
    .filter((param) => param.name === 'before' && isCursor(param))
    .flatMap(() =>
      BAD_CURSORS.map((cursor) => ({
        name: `before=${cursor.slice(0, 40)}`,
        attempt: () => ({
          query: `before=${cursor}`,
          expect: 'reject' as const,
          status: 400,
          mentions: 'before',
        }),
      })),
    ),
];
// ─── end of conversations (issue 27) ───────────────────────────────────────────────────────────

// ─── co-teachers (DESIGN §20) ───────────────────────────────────────────────────────────────────
/** Addresses an owner might type: the documented format decides (refused with a 400 naming email). */
const INVITE_EMAILS = [
  ' spaced@school.test ',
  'no-at-sign',
  'two@@school.test',
  'a@b',
  `${'x'.repeat(250)}@school.test`,
  'Ünïcode@school.test',
  'teacher+tag@school.test',
  'UPPER.CASE@SCHOOL.TEST',
  '"quoted"@school.test',
  'nul\u0000@school.test',
  '<script>@school.test',
  'teacher@school.test\r\nBcc: evil@elsewhere.test',
  '=HYPERLINK("x")@school.test',
];

/** Tokens no invitation has, or that are not tokens at all: 400 naming the token, or 404, never a 500. */
const INVITE_TOKENS: Array<[string, string | ((real: string) => string), 400 | 404]> = [
  ['too short', 'abc', 400],
  ['too long', 'a'.repeat(129), 400],
  ['a space', 'has%20space', 400],
  ['a NUL', 'tok%00en-that-is-long-enough', 400],
  ['SQL', encodeURIComponent("' OR 1=1 --"), 400],
  ['padding', (real) => `${real}%3D`, 400],
  ['an encoded path', '..%2F..%2Fapi%2Fhealth', 400],
  ['unknown but well formed', 'A'.repeat(43), 404],
  ['the real one in upper case', (real) => real.toUpperCase(), 404],
  ['the real one plus a character', (real) => `${real}x`, 404],
];

const coTeacherCases = (route: Route): Case[] => [
  ...(route.key === 'POST /api/courses/:id/teachers'
    ? INVITE_EMAILS.map((email) => ({
        name: `email ${JSON.stringify(email).slice(0, 50)}`,
        attempt: (valid: () => Json | undefined) => {
          const body = { ...valid(), email };
          return documentedValid(route, body)
            ? { body: JSON.stringify(body), expect: 'accept' as const }
            : { body: JSON.stringify(body), expect: 'reject' as const, status: 400, mentions: 'email' };
        },
      }))
    : []),
  ...(route.path.includes('{token}')
    ? INVITE_TOKENS.map(([what, token, status]) => ({
        name: `token: ${what}`,
        attempt: () => ({
          token,
          expect: 'reject' as const,
          status,
          ...(status === 400 ? { mentions: 'token' } : {}),
        }),
      }))
    : []),
];
// ─── end of co-teachers ────────────────────────────────────────────────────────────────────────
// ─── live lessons (issue 29) ──────────────────────────────────────────────────────────────────────
/** A body that fits the schema but not the question's kind: a 400 naming the field at fault. */
const kindMismatch = (name: string, body: Json, mentions: string): Case => ({
  name,
  attempt: () => ({ body: JSON.stringify(body), expect: 'reject', status: 400, mentions }),
});

/**
 * Questions and answers (DESIGN §21): each kind's own rules beyond the schema — choices for
 * multiple choice and polls only, a right answer that fits the kind, none for a poll, anonymous
 * only for a poll —, and answers to the fuzz question (two choices) of every wrong shape.
 */
const lessonCases = (route: Route): Case[] => {
  if (route.key === 'POST /api/lessons/:id/questions' || route.key === 'POST /api/courses/:id/question-bank')
    return [
      kindMismatch(
        'choices without options',
        { kind: 'multiple_choice', prompt: 'Q', correct: 0 },
        'options',
      ),
      kindMismatch('one choice', { kind: 'poll', prompt: 'Q', options: ['only'] }, 'options'),
      kindMismatch(
        'a right answer beyond the choices',
        { kind: 'multiple_choice', prompt: 'Q', options: ['a', 'b'], correct: 2 },
        'correct',
      ),
      kindMismatch(
        'a fractional choice',
        { kind: 'multiple_choice', prompt: 'Q', options: ['a', 'b'], correct: 0.5 },
        'correct',
      ),
      kindMismatch(
        'a poll with a right answer',
        { kind: 'poll', prompt: 'Q', options: ['a', 'b'], correct: 0 },
        'correct',
      ),
      kindMismatch('true/false answered 1', { kind: 'true_false', prompt: 'Q', correct: 1 }, 'correct'),
      kindMismatch(
        'true/false with choices',
        { kind: 'true_false', prompt: 'Q', options: ['a', 'b'], correct: true },
        'options',
      ),
      kindMismatch('a number answered in words', { kind: 'number', prompt: 'Q', correct: 'ten' }, 'correct'),
      kindMismatch('a short answer with none', { kind: 'short_answer', prompt: 'Q' }, 'correct'),
      kindMismatch('a blank short answer', { kind: 'short_answer', prompt: 'Q', correct: '   ' }, 'correct'),
      kindMismatch(
        'an anonymous number question',
        { kind: 'number', prompt: 'Q', correct: 1, anonymous: true },
        'anonymous',
      ),
      kindMismatch(
        '11 choices',
        { kind: 'poll', prompt: 'Q', options: Array.from({ length: 11 }, (_, i) => `c${i}`) },
        'options',
      ),
      {
        name: 'a right answer of 1e400 (Infinity once parsed)',
        attempt: () => ({
          body: '{"kind":"number","prompt":"Q","correct":1e400}',
          expect: 'reject',
          status: 400,
          mentions: 'correct',
        }),
      },
    ];
  if (route.key === 'PUT /api/lessons/:id/questions/:qid/answer')
    return [
      ...[2, -1, 0.5, 1e300, true, 'A', '0', ''].map((answer) =>
        kindMismatch(`the answer ${JSON.stringify(answer)} to a two-choice question`, { answer }, 'answer'),
      ),
      ...[null, {}, [], [0], { $gt: 0 }].map((answer) =>
        kindMismatch(`the answer ${JSON.stringify(answer)}`, { answer }, 'answer'),
      ),
      {
        name: 'the answer 1e400 (Infinity once parsed)',
        attempt: () => ({ body: '{"answer":1e400}', expect: 'reject', status: 400, mentions: 'answer' }),
      },
    ];
  return [];
};
// ─── end of live lessons (issue 29) ──────────────────────────────────────────────────────────────

// ─── the school's sign-in (issue 28, DESIGN §20) ────────────────────────────────────────────────
const CALLBACK = 'GET /api/auth/oidc/callback';
/** Where a refused school sign-in lands: the login page saying why, never an error page. */
const refusedTo = (reason: string) => ({
  expect: 'accept' as const,
  status: 302,
  lands: `/login?error=${reason}`,
});

/**
 * The provider's answer as an attacker (or a broken provider) sends it, with the browser's real flow
 * cookie: hostile codes reach the provider's token endpoint and come back refused; a state that
 * is not the sealed one never gets that far; the provider's own error words are never shown raw.
 */
const oidcCallbackCases = (route: Route): Case[] => {
  if (route.key !== CALLBACK) return [];
  const withState = (what: string, query: string, reason = 'oidc_failed'): Case => ({
    name: what,
    attempt: () => ({ query, ...refusedTo(reason) }),
  });
  const hostileCodes = [
    ['a quoted code', encodeURIComponent(`"'\\`)],
    ['an HTML code', encodeURIComponent('<script>alert(1)</script>')],
    ['a NUL in the code', 'abc%00def'],
    ['an empty code', ''],
    ['a 2,048-character code', 'c'.repeat(2048)],
    ['a broken percent escape', 'a%zz%E0%A4%A'],
    ['right-to-left and zero-width characters', encodeURIComponent('\u202Ecode\u200B')],
  ];
  return [
    ...hostileCodes.map(([what, code]) =>
      withState(`${what} with the right state`, `code=${code}&state={state}`),
    ),
    withState('no code at all', 'state={state}'),
    withState(
      'another issuer (mix-up)',
      `code=x&state={state}&iss=${encodeURIComponent('https://evil.test')}`,
    ),
    withState(
      'a javascript: issuer',
      `code=x&state={state}&iss=${encodeURIComponent('javascript:alert(1)')}`,
    ),
    withState(
      "the provider's access_denied with HTML words",
      `state={state}&iss={iss}&error=access_denied&error_description=${encodeURIComponent('<img src=x onerror=alert(1)>')}`,
      'oidc_denied',
    ),
    withState('an unknown error code', 'state={state}&iss={iss}&error=%3Cb%3E', 'oidc_denied'),
    withState('a state not sealed here', 'code=x&state=forged', 'oidc_state'),
    withState('an empty state', 'code=x&state=', 'oidc_state'),
    withState('no state', 'code=x', 'oidc_state'),
    withState('the state in another case', 'code=x&STATE={state}', 'oidc_state'),
    {
      name: 'a 2,049-character state',
      attempt: () => ({ query: `code=x&state=${'s'.repeat(2049)}`, expect: 'reject', status: 400 }),
    },
    {
      name: 'the state twice',
      attempt: () => ({ query: 'code=x&state={state}&state={state}', expect: 'reject', status: 400 }),
    },
    { name: 'the state as an object', attempt: () => ({ query: 'code=x&state[a]=b', expect: 'any' }) },
    {
      name: 'a __proto__ parameter',
      attempt: () => ({ query: 'code=x&state={state}&__proto__[admin]=1', expect: 'any' }),
    },
    {
      name: 'a 20,000-character query',
      attempt: () => ({ query: `code=x&state={state}&x=${'y'.repeat(20_000)}`, expect: 'any' }),
    },
  ];
};
// ─── end of the school's sign-in ────────────────────────────────────────────────────────────────

// ─── roster import (issue 28, DESIGN §20) ───────────────────────────────────────────────────────
const ROSTER = 'POST /api/courses/:id/roster-import';
const rows = (count: number) =>
  'name,email\n' + Array.from({ length: count }, (_, i) => `Student ${i},s${i}@fuzz-roster.test`).join('\n');

/**
 * CSV as schools' spreadsheets write it and as an attacker might: quotes, a byte-order mark,
 * formula-looking names (kept as text), duplicates, 10,000 rows and one more, broken files (422
 * naming the problem), the raw text/csv body, OneRoster files missing their columns.
 */
const rosterCases = (route: Route): Case[] => {
  if (route.key !== ROSTER) return [];
  const csv = (
    name: string,
    text: string,
    outcome: Partial<Attempt> = { expect: 'accept', status: 200 },
  ): Case => ({
    name,
    attempt: () => ({ query: 'dryRun=1', body: JSON.stringify({ csv: text }), expect: 'any', ...outcome }),
  });
  const refused = (status: number) => ({ expect: 'reject' as const, status });
  return [
    csv(
      'quotes, commas and line breaks in a name',
      'name,email\n"Quote ""Q"", Person\nLine",q@fuzz-roster.test\n',
    ),
    csv('a UTF-8 byte-order mark', '\uFEFFname,email\nBom Person,bom@fuzz-roster.test\n'),
    ...["=cmd|' /C calc'!A0", '+1+1', '-2+3', '@SUM(A1)', '=HYPERLINK("http://evil.test","x")', '\t=1'].map(
      (name) =>
        csv(
          `the formula-looking name ${name.slice(0, 30)}`,
          `name,email\n"${name.replace(/"/g, '""')}",f@fuzz-roster.test\n`,
        ),
    ),
    csv(
      'the same address twice, in two cases',
      'name,email\nA,dup@fuzz-roster.test\nB,DUP@fuzz-roster.test\n',
    ),
    csv('only the header', 'name,email\n'),
    csv('10,000 rows', rows(10_000)),
    csv('10,001 rows', rows(10_001), refused(413)),
    csv('an unclosed quote', 'name,email\n"Ana,ana@fuzz-roster.test\n', refused(422)),
    csv('no header naming the columns', 'Ana,ana@fuzz-roster.test\n', refused(422)),
    csv('an empty file', '', refused(422)),
    csv('control characters', 'name,email\nA\u0007\u001B[31mB,ctl@fuzz-roster.test\n'),
    csv('a NUL character', 'name,email\nA\u0000B,nul@fuzz-roster.test\n', refused(400)),
    csv('HTML in a name and an address', 'name,email\n<script>alert(1)</script>,<b>@fuzz-roster.test\n'),
    {
      name: 'the CSV as a text/csv body, committed',
      attempt: () => ({
        query: '',
        body: 'name,email\nRaw Body,raw@fuzz-roster.test\n',
        contentType: 'text/csv',
        expect: 'accept',
        status: 200,
      }),
    },
    {
      name: 'OneRoster files without their columns',
      attempt: () => ({
        query: 'dryRun=1',
        body: JSON.stringify({ users: 'a,b\n1,2\n', enrollments: 'c,d\n3,4\n' }),
        ...refused(422),
      }),
    },
    {
      name: 'both a CSV and OneRoster files',
      attempt: () => ({
        query: 'dryRun=1',
        body: JSON.stringify({ csv: 'name,email\n', users: '', enrollments: '' }),
        ...refused(400),
      }),
    },
  ];
};
// ─── end of roster import ───────────────────────────────────────────────────────────────────────

/** Every category of hostile input, for one route. */
export function categoriesFor(route: Route, random: SeededRandom): Record<string, Case[]> {
  const bodyOnly = (cases: Case[]) => (readsBody(route) ? cases : cases.slice(0, GET_SAMPLE));
  return {
    'its valid request': [
      { name: 'the valid request', attempt: () => ({ expect: 'accept' }) },
      ...(route.body
        ? [
            {
              name: 'with a charset',
              attempt: () => ({ contentType: 'application/json; charset=utf-8', expect: 'accept' as const }),
            },
          ]
        : []),
    ],
    'malformed JSON': bodyOnly(malformedJson(route)),
    'wrong types': wrongTypes(route),
    'missing and extra fields': route.body ? missingAndExtra(route) : [],
    'huge and deep bodies': bodyOnly(hugeAndDeep(route)),
    'odd content types': bodyOnly(contentTypes(route)),
    'prototype keys': bodyOnly(prototypeKeys(route)),
    'odd and broken text': oddText(route),
    'code-like text': codeLikeText(route),
    'odd formatted values': oddFormattedValues(route),
    'odd path params': oddPathParams(route, random),
    'odd query strings': oddQueries(route),
    'seeded random mutations': randomMutations(route, random),
    'rubric bodies': rubricBodies(route),
    'conversation text and cursors': conversationCases(route),
    'co-teacher e-mails and invitation tokens': coTeacherCases(route),
    'lesson questions and answers': lessonCases(route),
    'OIDC callback parameters': oidcCallbackCases(route),
    'roster CSV files': rosterCases(route),
  };
}
