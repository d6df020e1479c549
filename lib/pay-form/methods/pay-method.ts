// What a method of the payment page is: one module per method the page offers (card.tsx, mobile.tsx), each an
// object of this interface, listed by the page's registry (index.ts). The page's method tabs, the fields it
// renders, the form's schema (checked in the browser and again on the server), what the browser posts and the
// request the server makes of it are all built from that list. Part of the page's browser script: keep its
// imports free of dinero.js, Prisma, zod's classic API or anything of the server's (lib/payments/methods is the
// server's side of a method, joined by `type`).
import type { ReactNode } from 'react'
import type { UseFormRegister } from 'react-hook-form'
import type { PayFormMessages } from '../../i18n/en/pay-form'

/** the payer's digits as typed, without spaces, brackets, plus signs and dashes */
export const onlyDigits = (s: string) => s.replace(/[\s()+-]/g, '')

/** the form as typed: the method chosen, an open bill's amount and every method's fields (all strings) */
export type PayFormInput = { method: string; [field: string]: string | undefined }

/** the page's messages that are words (not the tables of errors and reasons): a tab's label is one of them */
export type PayFormText = {
  [K in keyof PayFormMessages]: PayFormMessages[K] extends string ? K : never
}[keyof PayFormMessages]

/** what a method's fields are rendered with (components/pay/payment-form.tsx holds the form) */
export interface MethodFieldsProps<F extends string = string> {
  t: PayFormMessages
  register: UseFormRegister<PayFormInput>
  /** the field's error in the payer's words, or '' */
  error: (name: F) => string
  /** the field's aria-describedby: its hint (when it has one) and its error */
  describedBy: (name: F, hint?: boolean) => string | undefined
  invalid: (name: F) => boolean
  /** the form's current value of a field (re-rendered as it changes) */
  watched: (name: F) => string
}

export interface PayFormMethod<F extends string = string, V extends Record<F, string> = Record<F, string>> {
  /** its tab's place on the page: ascending, the card's first */
  position: number
  /** the form's `method` value (its tab's radio value; the posted `method`) */
  method: string
  /** the request's `paymentMethod.type` it pays with: its method in lib/payments/methods */
  type: string
  /** its tab's label */
  label: PayFormText
  /**
   * its fields, as posted and in the order the first one with an error takes the focus; names unique across
   * methods (each is a string of at most 64 characters, '' when missing)
   */
  fields: readonly F[]
  /**
   * what is wrong with the typed fields: `problem(field, code)`, the code a key of the messages' `errors`;
   * `now` is the bill's site's sandbox time (a card's expiry month is judged by it)
   */
  check(typed: Record<F, string>, problem: (field: F, code: string) => void, now: () => Date): void
  /** the checked fields as the server takes them on (digits only, trimmed) */
  values(typed: Record<F, string>): V
  /** the request's paymentMethod, of its type */
  paymentMethod(values: V): { type: string } & Record<string, unknown>
  /**
   * what the page says while a payment of it waits with nothing asked of the payer (absent: the mobile operator's
   * wait, `waitingOperator`)
   */
  waiting?: PayFormText
  /** fields cleared once the form is sent, whichever method was sent (a card's data is not kept in the page) */
  notKept?: readonly F[]
  /**
   * fields typed before the page's script took the form over, shown as the form shows what is typed from now on
   * (a card number grouped): the values to set, for the fields it changes
   */
  shownAsTyped?(typed: Partial<Record<F, string>>): Partial<Record<F, string>>
  /** its fields on the form, below the tabs */
  Fields(props: MethodFieldsProps<F>): ReactNode
}

/** a method module's object, its field names inferred */
export const definePayFormMethod = <F extends string, V extends Record<F, string>>(m: PayFormMethod<F, V>) => m
