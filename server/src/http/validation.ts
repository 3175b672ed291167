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
  return ajv;
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
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      done(
        /prototype/i.test(message)
          ? badRequest('The request body must not contain "__proto__" or "constructor" keys.')
          : new AppError(400, ErrorCode.invalidJson, 'The request body is not valid JSON.'),
        undefined,
      );
    }
  });
}

export type { FastifySchema };
