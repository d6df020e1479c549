// What a payment method is (the request's `paymentMethod.type`): one module per method in this folder, each
// an object of this interface, listed by the registry (index.ts), the one place a method is added. The request
// union, the list of types in the API's errors, the OpenAPI document's oneOf and the answer's and notification's
// type enumerations are all built from that list. The payment page offers a method through a page module of its
// own (lib/pay-form/methods), which names it by its type.
import type { z } from 'zod'
import type { CardProfile, DeclineReason } from '../../acquirer/sandbox-acquirer'
import type { Tx } from '../payment-store'
import type { FlowAnswer } from '../flows'

/**
 * the sandbox's first answer to a charge: a final one, or the start of a payer-authentication flow (lib/payments/flows:
 * 3-D Secure, a one-time code, the operator's answer)
 */
export type FirstAnswer = { kind: 'approved' } | { kind: 'declined'; reason: DeclineReason } | FlowAnswer

/** What a payment charges, as its row keeps it, and the sandbox's first answer. */
export interface Instrument {
  /** the stored method (StoredMethod.methodType) */
  methodType: string
  maskedPan?: string
  /** what the sandbox keeps of a card to charge it again (tokens, recurrent series) */
  profile?: CardProfile
  /** the holder's name of the card it charges, as a card payment's request gave it */
  cardHolder?: string
  /** the first payment of the recurrent series this charge belongs to */
  seriesRef?: string
  /** the payment's internal id, when the charge wrote rows that name it (an SBP payment's QR code) */
  paymentRef?: string
  /** what the method keeps besides the common columns (Payment.methodData), answered through StoredMethod */
  methodData?: Record<string, string>
  answer: FirstAnswer
}

/**
 * How the payments of a method are stored and shown: what a payment row's `methodType` stands for. A method may be
 * stored as another (a RECURRENT charge is stored, answered and notified as CARD, with its series' card).
 */
export interface StoredMethod {
  /** the row's `methodType`: `paymentMethod.type` in answers and notifications */
  methodType: string
  /** an approval captures the whole amount whatever the flags (the method is always one-step) */
  capturesOnApproval: boolean
  /** a COMPLETED payment with flag BIND_PAYMENT_TOKEN (and a customer account) issues a payment token */
  issuesTokens: boolean
  /** answers carry the payment's masked card (`paymentMethod.maskedPan`); else the type alone */
  answersPan: boolean
  /**
   * the card a notification tells of (`paymentMethod.maskedPan`; with it `paymentCardInfo`, and an approved
   * payment's rrn and authCode), or null
   */
  notifiedPan(p: { maskedPan: string | null }): string | null
  /** what answers and notifications tell in `paymentMethod` beside the type (an SBP payment's payer phone) */
  methodFields?(p: { methodData: unknown }): { phone?: string }
  /** what a PAYMENT notification's object tells beside the common fields (an SBP payment's qrCodeUid) */
  notifiedFields?(p: { methodData: unknown }): { qrCodeUid?: string }
}

/** what a charge that reads the database knows besides its method's fields */
export interface ChargeContext {
  siteId: string
  /** the request's customer.account (required where the method says so: needsCustomerAccount) */
  account: string | undefined
  /** the site's time */
  now: Date
  /** the request's amount in minor units, and its comment */
  amountMinor: number
  comment: string | undefined
  /** a payment made on the payment page: the page's URL, where a method that leaves it sends the payer back */
  payerReturnUrl?: string
}

/**
 * How a method charges through the sandbox acquirer: with nothing read (a card, a phone: such a payment naming no
 * bill is written by one statement), or by a lookup in the payment's transaction (a token, a series).
 */
export type Charge<M> =
  { direct(m: M, now: Date): Instrument } | { lookup(tx: Tx, m: M, context: ChargeContext): Promise<Instrument> }

/** the request schema of a method: an object whose `type` is the method's literal */
export type MethodSchema = z.ZodObject<{ type: z.ZodLiteral<string> } & z.ZodRawShape>

/** an OpenAPI request example of the payment create endpoint */
export interface RequestExample {
  summary: string
  value: Record<string, unknown>
}

export interface PaymentMethod<S extends MethodSchema = MethodSchema> {
  /** its place in the API's lists (the `must be one of` message, the OpenAPI oneOf and examples): ascending */
  position: number
  /** the request's `paymentMethod.type` (its schema's literal) */
  type: z.output<S>['type'] & string
  /** the request's paymentMethod of this type, with its OpenAPI id and descriptions */
  schema: S
  /** what it charges, in the create endpoint's description: `a card` */
  charges: string
  /** how its payments are stored and shown */
  storedAs: StoredMethod
  charge: Charge<z.output<S>>
  /** the only currencies it pays in (absent: any); another is a 400 on amount.currency */
  currencies?: readonly string[]
  /** flag BIND_PAYMENT_TOKEN is allowed */
  canBindToken: boolean
  /** flag RECURRENT_FIRST is allowed */
  canStartRecurrent: boolean
  /** customer.account is required, for this reason (the 400's message) */
  needsCustomerAccount?: string
  /** the create endpoint's request examples (names unique across methods), in the document's order */
  requestExamples: Record<string, RequestExample>
}

/** a method module's object, its types inferred from its schema */
export const definePaymentMethod = <S extends MethodSchema>(method: PaymentMethod<S>): PaymentMethod<S> => method
