// The registry of payment methods: a method is a module beside this file (listed in registered.generated.ts, which
// every npm script writes from the folder). Everything that lists or tells the methods apart asks here: the
// request's union and its "must be one of" message, the flags' rules, the OpenAPI oneOf and examples, the stored
// types of answers and notifications; the payment page's methods (lib/pay-form/methods) find theirs here by type.
import { z } from 'zod'
import { inPositionOrder } from '../../registered'
import type { PaymentMethod, RequestExample, StoredMethod } from './payment-method'
import { modules } from './registered.generated'

type RegisteredMethod = (typeof modules)[number]

/** the methods, in the order the API lists them (its errors, the OpenAPI document's oneOf and examples) */
export const PAYMENT_METHODS: readonly RegisteredMethod[] = inPositionOrder('payment methods', modules)

type RegisteredSchema = RegisteredMethod['schema']

/** a request's paymentMethod, by its type */
export const methodRequestSchema = z.discriminatedUnion(
  'type',
  PAYMENT_METHODS.map((m) => m.schema) as unknown as [RegisteredSchema, ...RegisteredSchema[]],
)
export type MethodRequest = z.output<typeof methodRequestSchema>

/** the request types (`paymentMethod.type`) */
export const METHOD_TYPES: readonly string[] = PAYMENT_METHODS.map((m) => m.type)

const byType = new Map<string, PaymentMethod>(PAYMENT_METHODS.map((m) => [m.type, m as unknown as PaymentMethod]))
if (byType.size !== PAYMENT_METHODS.length) throw new Error('payment methods: a type is registered twice')

/** the method of a request type, or undefined */
export const methodOf = (type: string): PaymentMethod | undefined => byType.get(type)

/** the stored methods, each once (a method stored as another adds none), in the registry's order */
export const STORED_METHODS: readonly StoredMethod[] = [...new Set(PAYMENT_METHODS.map((m) => m.storedAs))]
const storedByType = new Map(STORED_METHODS.map((s) => [s.methodType, s]))
if (storedByType.size !== STORED_METHODS.length) throw new Error('payment methods: a methodType is stored twice')

/** the stored `methodType`s: the values of `paymentMethod.type` in answers and notifications */
export const STORED_METHOD_TYPES = STORED_METHODS.map((s) => s.methodType) as [string, ...string[]]

/** what a payment row's `methodType` stands for, or undefined (a method no longer registered) */
export const storedMethodOf = (methodType: string): StoredMethod | undefined => storedByType.get(methodType)

/** words as people list them: `a`, `a and b`, `a, b and c` (or `… or c`) */
export const listed = (words: string[], last: 'and' | 'or' = 'and') =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`

/** the request types of the methods that `pass`, for people: `CARD`, `CARD and TOKEN`, `CARD, TOKEN and MOBILE` */
export const typesThat = (pass: (m: PaymentMethod) => boolean) =>
  listed([...byType.values()].filter(pass).map((m) => m.type))

/** the create endpoint's request examples, each method's in turn */
export function methodRequestExamples(): Record<string, RequestExample> {
  const examples: Record<string, RequestExample> = {}
  for (const m of PAYMENT_METHODS)
    for (const [name, example] of Object.entries(m.requestExamples)) {
      if (name in examples) throw new Error(`payment methods: request example ${name} is given twice`)
      examples[name] = example
    }
  return examples
}

/** whether a bill with these flags can be paid with the method (a bill's flags are its payments') */
export const allowedWithFlags = (method: PaymentMethod, flags: string[]) =>
  (method.canBindToken || !flags.includes('BIND_PAYMENT_TOKEN')) &&
  (method.canStartRecurrent || !flags.includes('RECURRENT_FIRST'))
