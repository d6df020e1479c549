// What the OpenAPI document (lib/openapi/api-document.ts) writes of a schema where zod's own JSON
// Schema would not say it. Documentation only: validation stays the schema's own.
// - Requests: how a value is written on the wire. A schema that transforms what it reads (an amount
//   value taken from a JSON string or number, a date-time read into a Date, a payment method checked by
//   its type) converts to JSON Schema as its input side, which for `z.unknown().transform(…)` is `{}`:
//   the document writes the keywords given here in its place (writtenAs).
// - Answers: what the published document relaxes of their exact schemas (answerLeeway, below).
import { z } from 'zod'

export type JsonSchema = z.core.JSONSchema.BaseSchema

/** the JSON Schema a transforming request schema is documented as */
export const wireForms = z.registry<JsonSchema>()

/** documents `schema` as `form` (which replaces what zod would derive from it) */
export function writtenAs<S extends z.core.$ZodType>(schema: S, form: JsonSchema): S {
  wireForms.add(schema, form)
  return schema
}

/** the schemas wire forms refer to (refTo): components of the document, whether or not another schema uses them */
export const referencedSchemas = new Set<z.core.$ZodType>()

/** a wire form's $ref to a schema with an id (`.meta({ id })`), which becomes a component of the document */
export function refTo(schema: z.core.$ZodType): JsonSchema {
  const id = z.globalRegistry.get(schema)?.id
  if (typeof id !== 'string') throw new Error('refTo: the schema has no id')
  referencedSchemas.add(schema)
  return { $ref: `#/components/schemas/${id}` }
}

/**
 * What the published document relaxes of an answer's exact schema (and of a notification's). The
 * answers' zod schemas say exactly what this service sends, and the tests hold every answer to them
 * (the document's strict variant: closed objects, every field we always send required, our date-time
 * forms, our values). The published document (openapi.json, /api/openapi.json, /docs) describes what
 * any implementation of the protocol may send — production's answers carry fields ours do not, leave
 * out fields ours always carry, use values ours never do —, and what ours may come to send, so that a
 * client generated from it breaks on none of that. There no object is closed (every answer object, not
 * marked), and a schema marked here is written as its mark says.
 */
export interface AnswerLeeway {
  /** an enumeration whose values may grow: published as a string with the known values as its examples */
  openValues?: true
  /** one of our date-time forms: published as `format: date-time`, our exact form in its description and examples */
  dateTime?: true
  /** a field this service always sends and production may leave out: required in the strict variant only */
  mayBeAbsent?: true
  /**
   * a list of strings whose length and values may differ: published as an array of strings, the known values as its
   * items' examples
   */
  openList?: true
  /**
   * a string in a form of this service's own (its token ids, its sandbox reference numbers): published without its
   * pattern
   */
  ownFormat?: true
}

export const answerLeeway = z.registry<AnswerLeeway>()

function mark<S extends z.core.$ZodType>(schema: S, leeway: AnswerLeeway): S {
  answerLeeway.add(schema, { ...answerLeeway.get(schema), ...leeway })
  return schema
}

/**
 * An enumeration of an answer whose values may grow (production sends flags, reasons and codes ours
 * never do; the reference lists payment method types ours never answer). Published as a plain string
 * with the known values as `examples`, the idiom of OpenAPI 3.1 for an open list: every generator makes
 * it a string (a closed `enum` becomes a type that fails to decode an unknown value; `anyOf` of an enum
 * and a string becomes a wrapper type in most generators, and a bare string in TypeScript anyway).
 */
export const openValues = <S extends z.core.$ZodType>(schema: S): S => mark(schema, { openValues: true })

/** one of our date-time forms (wire-time.ts): published as `format: date-time` */
export const publishedAsDateTime = <S extends z.core.$ZodType>(schema: S): S => mark(schema, { dateTime: true })

/**
 * A field of an answer that this service always sends and production may leave out (Bill.siteId,
 * flags, creationDateTime): a copy of `schema` (the same schema serves other fields), required in the
 * strict variant only.
 */
export const mayBeAbsent = <S extends z.core.$ZodType>(schema: S): S =>
  mark((schema as unknown as { clone(): S }).clone(), { mayBeAbsent: true })

/**
 * A list of an answer whose length and values are ours (a notification's flags: exactly one of SALE and
 * AUTH; a capture's: none), where production sends others (TEST beside them): published as an array of
 * strings with the known values as its items' examples, no fixed positions or length.
 */
export const openList = <S extends z.core.$ZodType>(schema: S): S => mark(schema, { openList: true })

/**
 * A string of an answer in a form of this service's own (its payment tokens' `pt_` prefix, its sandbox
 * rrn and authCode digits), which production's values do not follow (its rrn `123`): published without
 * the pattern.
 */
export const ownFormat = <S extends z.core.$ZodType>(schema: S): S => mark(schema, { ownFormat: true })

/**
 * Rules between the fields of an answer's object that this service's answers always keep and a schema of
 * each field alone cannot say (a decline carries its reason, and nothing else does; a card payment its
 * masked number, and no other): JSON Schema conditions (`if`/`then`/`else`) that the strict variant adds
 * to the object's schema (its `allOf`), so that the HTTP tests hold every answer to them. The published
 * document leaves them out, as it describes what any implementation of the protocol may send.
 */
export const exactRules = z.registry<{ rules: JsonSchema[] }>()

/** `schema` with `rules` in the strict variant (exactRules) */
export function alwaysKeeps<S extends z.core.$ZodType>(schema: S, ...rules: JsonSchema[]): S {
  exactRules.add(schema, { rules: [...(exactRules.get(schema)?.rules ?? []), ...rules] })
  return schema
}

/**
 * a rule: when the object's `field` is `value`, `then`; otherwise `otherwise` (`value` may be a condition of its own)
 */
export const whenField = (
  field: string,
  value: string | JsonSchema,
  then: JsonSchema | undefined,
  otherwise: JsonSchema,
): JsonSchema => ({
  // the type said again, so that the rule reads alone (strict JSON Schema tools want it beside `properties`)
  type: 'object',
  if: { properties: { [field]: typeof value === 'string' ? { const: value } : value } },
  ...(then ? { then } : {}),
  else: otherwise,
})

/** the object's fields present (each named in `properties` too, as strict JSON Schema tools want beside `required`) */
export const present = (...fields: string[]): JsonSchema => ({
  properties: Object.fromEntries(fields.map((f) => [f, true])),
  required: fields,
})

/** the object's fields absent */
export const absent = (...fields: string[]): JsonSchema => ({
  properties: Object.fromEntries(fields.map((f) => [f, false])),
})
