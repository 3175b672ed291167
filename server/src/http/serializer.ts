import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

/** Keywords that make a schema more than one plain type, which `nullable` cannot stand beside. */
const COMBINING = ['$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'if'];

/** The other branch of `anyOf: [S, { type: 'null' }]` (either order), when S is one plain type. */
function nullablePart(anyOf: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return undefined;
  const isNull = (s: unknown) =>
    typeof s === 'object' && s !== null && (s as { type?: unknown }).type === 'null';
  const other = (isNull(anyOf[0]) ? anyOf[1] : isNull(anyOf[1]) ? anyOf[0] : undefined) as
    Record<string, unknown> | undefined;
  if (!other || typeof other.type !== 'string' || COMBINING.some((k) => k in other)) return undefined;
  return other;
}

/**
 * A response schema for serializing: each "S or null" (`Type.Union([S, Type.Null()])`, an `anyOf`)
 * as S with `nullable: true`. fast-json-stringify picks an `anyOf`'s branch by validating the value
 * against each with ajv, so every nullable timestamp of every row ran ajv's date-time check (10 % of
 * the busy time of the school's mix, 210 a student's list); `nullable` is one `=== null`. The
 * output is the same; requests are validated against the schemas as written.
 */
export function withNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNullable);
  if (typeof schema !== 'object' || schema === null) return schema;
  const source = schema as Record<string, unknown>;
  const part = nullablePart(source.anyOf);
  const base = part ? { ...source, ...part, nullable: true } : source;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base))
    if (!(part && key === 'anyOf')) out[key] = withNullable(value);
  return out;
}

/** Fastify's own serializer compiler (fast-json-stringify), given response schemas `withNullable`. */
export const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => compile({ ...route, schema: withNullable(route.schema) as typeof route.schema });
};
