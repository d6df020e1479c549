// How a request value is written on the wire where its zod schema cannot say it. A schema that
// transforms what it reads (an amount value taken from a JSON string or number, a date-time read into
// a Date, a payment method checked by its type) converts to JSON Schema as its input side, which for
// `z.unknown().transform(…)` is `{}`: the OpenAPI document (lib/openapi/api-document.ts) writes these
// keywords in its place. Documentation only: validation stays the schema's own.
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
