import type { FastifyInstance, FastifySchema } from 'fastify';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import secureJson from 'secure-json-parse';
import { ErrorCode } from '@classwave/shared';
import { AppError, badRequest } from './errors.js';

/**
 * Two validators: bodies are checked strictly (no type coercion, unknown fields rejected),
 * while params and query strings, which arrive as text, may be coerced to numbers and booleans.
 */
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    coerceTypes: coerce ? 'array' : false,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
  });
  addFormats.default(ajv);
  // The canonical form only: ajv-formats also takes "urn:uuid:…", which PostgreSQL refuses.
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  // RFC 3339 admits moments JavaScript cannot represent (a leap second) or the database stores
  // wrongly (year 0, years read back as two-digit ones): keep to what round-trips.
  const dateTime = formatTest(ajv, 'date-time');
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (value: string) => {
      const time = Date.parse(value);
      return dateTime(value) && time >= EARLIEST && time <= LATEST;
    },
  });
  return ajv;
}

const EARLIEST = Date.UTC(1000, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The check behind a format ajv already knows, whichever way it was given. */
function formatTest(ajv: Ajv, name: string): (value: string) => boolean {
  const format: unknown = ajv.formats[name];
  if (format instanceof RegExp) return (value) => format.test(value);
  if (typeof format === 'function') return format as (value: string) => boolean;
  const validate = (format as { validate?: unknown } | undefined)?.validate;
  if (validate instanceof RegExp) return (value) => validate.test(value);
  if (typeof validate === 'function') return validate as (value: string) => boolean;
  throw new Error(`no format ${name}`);
}

export function installValidation(app: FastifyInstance): void {
  const strict = makeAjv(false);
  const lenient = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : lenient).compile(schema as object),
  );
  app.setSchemaErrorFormatter((errors, dataVar) => new Error(describe(errors[0], dataVar)));
}

/** One readable sentence naming the field, e.g. `body.email must be a valid email`. */
function describe(error: ErrorObject | undefined, dataVar: string): string {
  if (!error) return `${dataVar} is not valid`;
  const base = dataVar + error.instancePath.replace(/\//g, '.');
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${base}.${String(params.missingProperty)} is required`;
    case 'additionalProperties':
      return `${base}.${String(params.additionalProperty)} is not allowed`;
    case 'format':
      return `${base} must be a valid ${String(params.format)}`;
    case 'minLength':
      return Number(params.limit) === 1
        ? `${base} must not be empty`
        : `${base} must be at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `${base} must be at most ${String(params.limit)} characters`;
    case 'pattern':
      return `${base} is not in the expected form`;
    case 'type':
      return `${base} must be ${String(params.type)}`;
    case 'enum':
    case 'const':
    case 'anyOf':
      return `${base} is not one of the allowed values`;
    default:
      return `${base} ${error.message ?? 'is not valid'}`;
  }
}

/**
 * The API speaks JSON only: other bodies get 415, and JSON that would pollute prototypes is
 * refused with a message that says so (Fastify's own parser hides why).
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '')
      return done(
        badRequest('The request body is empty; send a JSON object.', ErrorCode.invalidJson),
        undefined,
      );
    let parsed: unknown;
    try {
      parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      return done(
        /prototype/i.test(message)
          ? badRequest('The request body must not contain "__proto__" or "constructor" keys.')
          : new AppError(400, ErrorCode.invalidJson, 'The request body is not valid JSON.'),
        undefined,
      );
    }
    const broken = brokenTextIn(parsed);
    if (broken !== undefined)
      return done(
        badRequest(`${broken} must be valid text: no NUL characters and no lone surrogates.`),
        undefined,
      );
    done(null, parsed);
  });
}

/** A NUL (PostgreSQL cannot store it) or half a surrogate pair (it would be stored as U+FFFD). */
export const isBrokenText = (text: string): boolean => BROKEN_TEXT.test(text);
const BROKEN_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Where in a parsed body a string (or a key) is not well-formed text, as `body.field[2]`; undefined
 * when all of it is. Walks without recursion, and builds the path only for the culprit: a body may
 * be nested tens of thousands deep.
 */
function brokenTextIn(value: unknown): string | undefined {
  interface Step {
    node: unknown;
    key: string | number;
    parent: Step | undefined;
  }
  const pathOf = (step: Step | undefined): string => {
    const keys: Array<string | number> = [];
    // The root step (no parent) is the body itself.
    for (let s = step; s?.parent; s = s.parent) keys.push(s.key);
    const path = keys
      .reverse()
      .map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`))
      .join('');
    return `body${path.length > 200 ? `${path.slice(0, 200)}…` : path}`;
  };
  const pending: Step[] = [{ node: value, key: '', parent: undefined }];
  for (let step = pending.pop(); step; step = pending.pop()) {
    const { node } = step;
    if (typeof node === 'string') {
      if (BROKEN_TEXT.test(node)) return pathOf(step);
    } else if (Array.isArray(node)) {
      node.forEach((child, i) => pending.push({ node: child, key: i, parent: step }));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if (BROKEN_TEXT.test(key)) return `${pathOf(step)} (a key)`;
        pending.push({ node: child, key, parent: step });
      }
    }
  }
  return undefined;
}

export type { FastifySchema };
