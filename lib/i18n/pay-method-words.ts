// The payment page's words of its methods (lib/pay-form/methods), joined into the page's dictionary: each
// language's pay-methods/<method>.ts gives a method's parts (its folder's registered.generated.ts lists them, in
// file-name order), and its pay-form.ts puts each part where the page's words have it (all tabs' labels after
// `method`, then all methods' field words; the field errors after `required`; the refusals after the code's
// errors). Keys are unique across methods, so their order changes no word.

/** a method's words: its tab's label (keyed by the method), its fields', its error codes', its refusal's */
export interface MethodWords {
  tab: Record<string, string>
  words: Record<string, string>
  errors: Record<string, string>
  /** `<method>.unavailable`, for a method a bill's flags may exclude */
  refusals?: Record<string, string>
}

type Part = keyof MethodWords
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never
/** one part of every method, as one object */
export type Joined<M, P extends Part> = Intersection<
  { [K in keyof M]: M[K] extends { [Q in P]: infer X } ? X : Record<never, never> }[keyof M]
>

/** one part of every method, joined in the methods' order */
export const joined = <M extends Record<string, MethodWords>, P extends Part>(methods: M, part: P): Joined<M, P> =>
  Object.assign({}, ...Object.values(methods).map((m) => m[part] ?? {}))
