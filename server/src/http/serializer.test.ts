import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { buildSerializer, withNullable } from './serializer.js';

const Timestamp = Type.String({ format: 'date-time' });
const Row = Type.Object({
  id: Type.String(),
  due: Timestamp,
  returnedAt: Type.Union([Timestamp, Type.Null()]),
  grade: Type.Union([Type.Null(), Type.Number()]),
  submission: Type.Union([
    Type.Object({ at: Type.Union([Timestamp, Type.Null()]), text: Type.String() }),
    Type.Null(),
  ]),
  status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  tags: Type.Union([Type.Array(Type.String()), Type.Null()]),
});
const List = Type.Array(Row);

const rows = [
  {
    id: 'a',
    due: '2026-11-27T10:00:00.000Z',
    returnedAt: null,
    grade: null,
    submission: null,
    status: 'open',
    tags: null,
  },
  {
    id: 'b "quoted"',
    due: '2026-11-28T10:00:00.000Z',
    returnedAt: '2026-11-29T08:30:00.000Z',
    grade: 9.5,
    submission: { at: null, text: 'Line\nbreak </script>' },
    status: 'closed',
    tags: ['x', 'y'],
  },
];

describe('withNullable', () => {
  it('turns each "S or null" of one plain type into S with nullable, wherever it stands', () => {
    const out = withNullable(Row) as { properties: Record<string, unknown> };
    expect(out.properties.returnedAt).toEqual({ type: 'string', format: 'date-time', nullable: true });
    expect(out.properties.grade).toEqual({ type: 'number', nullable: true });
    expect(out.properties.submission).toMatchObject({
      type: 'object',
      nullable: true,
      properties: { at: { type: 'string', format: 'date-time', nullable: true } },
    });
    expect(out.properties.tags).toMatchObject({ type: 'array', nullable: true, items: { type: 'string' } });
    expect(JSON.stringify(out)).not.toContain('"type":"null"');
  });

  it('leaves other unions as they are: of literals, of three, with a reference', () => {
    const literals = Type.Union([Type.Literal('open'), Type.Literal('closed')]);
    const three = Type.Union([Type.String(), Type.Number(), Type.Null()]);
    const referenced = { anyOf: [{ $ref: 'Row#' }, { type: 'null' }] };
    expect(withNullable(literals)).toEqual(JSON.parse(JSON.stringify(literals)));
    expect(withNullable(three)).toEqual(JSON.parse(JSON.stringify(three)));
    expect(withNullable(referenced)).toEqual(referenced);
  });

  it('serializes as the schema written does, and as JSON.stringify does', () => {
    const ours = buildSerializer()({ method: 'GET', url: '/', httpStatus: '200', schema: List });
    // Fastify's own compiler, given the schema as written.
    const theirs = SerializerSelector()()({ method: 'GET', url: '/', httpStatus: '200', schema: List });
    expect(ours(rows)).toBe(theirs(rows));
    expect(JSON.parse(ours(rows))).toEqual(rows);
  });
});
