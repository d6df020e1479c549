// The dashboard's words for the API's codes in English: statuses, methods, decline reasons (a sentence each; the
// page shows the code beside it), flags, notification types and states, and the service's own English messages
// as the dashboard's forms and logs show them. Every code of the service's tables has its words here and in every
// other language (tests/unit/dashboard-code-words.test.ts).
export const codes = {
  paymentStatus: { WAITING: 'Waiting', COMPLETED: 'Paid', DECLINED: 'Declined' } as Record<string, string>,
  /** a COMPLETED two-step payment's words while its hold is open, and once it was released (hold-state.ts) */
  holdState: { AUTHORISED: 'Authorised', RELEASED: 'Released' } as Record<string, string>,
  billStatus: { CREATED: 'Awaiting payment', PAID: 'Paid', EXPIRED: 'Expired' } as Record<string, string>,
  captureStatus: { WAITING: 'Waiting', COMPLETED: 'Captured', DECLINED: 'Declined' } as Record<string, string>,
  refundStatus: { WAITING: 'Postponed', COMPLETED: 'Refunded', DECLINED: 'Declined' } as Record<string, string>,
  /** a notification's `status`: the final status it tells of */
  notificationStatus: { COMPLETED: 'Success', DECLINED: 'Declined' } as Record<string, string>,
  notificationState: { PENDING: 'Pending', DELIVERED: 'Delivered', FAILED: 'Failed' } as Record<string, string>,
  notificationType: {
    PAYMENT: 'Payment',
    CAPTURE: 'Capture',
    REFUND: 'Refund',
    CHECK_CARD: 'Card verification',
  } as Record<string, string>,
  /** a payment's stored method (`paymentMethod.type` of answers and notifications) */
  method: {
    CARD: 'Card',
    TOKEN: 'Payment token',
    MOBILE: 'Mobile balance',
    SBP: 'SBP',
    APPLE_PAY_TOKEN: 'Apple Pay',
    GOOGLE_PAY_TOKEN: 'Google Pay',
  } as Record<string, string>,
  flag: {
    SALE: 'One-step',
    BIND_PAYMENT_TOKEN: 'Issues a payment token',
    RECURRENT_FIRST: 'Starts recurrent payments',
    CHECK_CARD: 'Card verification',
  } as Record<string, string>,
  reason: {
    ACQUIRING_DECLINED: 'The card’s bank declined the payment.',
    ACQUIRING_INSUFFICIENT_FUNDS: 'Not enough money on the card.',
    ACQUIRING_EXPIRED_CARD: 'The card has expired.',
    ACQUIRING_INCORRECT_CVV: 'The card’s security code (CVV) was wrong.',
    TRY_AGAIN_LATER: 'A temporary failure: try again later.',
    DECLINED_BY_MPI: 'The 3-D Secure check failed.',
    PAYMENT_EXPIRED_3DS: 'The 3-D Secure check was not completed in time.',
    INVALID_OTP: 'The confirmation code was wrong too many times.',
    INVALID_STATE: 'The payment does not allow this operation.',
    INVALID_AMOUNT: 'The amount is more than the payment allows.',
    BILL_ALREADY_PAID: 'The bill was already paid.',
    BILL_EXPIRED: 'The bill had expired.',
    REATTEMPT_NOT_PERMITTED: 'Too early for the next charge of the recurrent series.',
    RECURRENT_EXPIRED: 'The recurrent series has ended.',
    SBP_DECLINED_BY_PAYER: 'The payer declined the payment in their bank app.',
    SBP_QR_EXPIRED: 'The QR code expired before it was paid.',
    REFUND_DECLINED_BY_MERCHANT: 'The merchant declined the postponed refund.',
  } as Record<string, string>,
  /** an audit entry's action, on the pages of a payment, a bill and a notification */
  auditAction: { capture: 'Capture', refund: 'Refund', resend: 'Resend', bill: 'Bill created' } as Record<
    string,
    string
  >,
  /** a refusal in the audit log: the service's reason in the page's words */
  refused: 'refused: {reason}',
  // the timeline's details
  attempt: '{type}, {status} → {answer} ({ms})',
  noAnswer: 'no answer',
  auditEntry: '{action} by {actor}: {outcome}',
  ms: '{ms} ms',
  /**
   * The service's own English messages (errors of its answers, field messages, delivery attempts' errors), as the
   * dashboard shows them: `{n}` stands for a number, `{detail}` for whatever follows (a code, an address).
   */
  messages: {
    'Nothing is left to capture on this payment': 'Nothing is left to capture on this payment',
    'Nothing is left to refund on this payment': 'Nothing is left to refund on this payment',
    'The amount is more than is left to capture': 'The amount is more than is left to capture',
    'The amount is more than is left to refund': 'The amount is more than is left to refund',
    'A payment with splits or a receipt is captured in full only':
      'A payment with splits or a receipt is captured in full only',
    'Not made: it would be declined with {detail}': 'Not made: it would be declined with {detail}',
    'Successful capture already done for this payment': 'Successful capture already done for this payment',
    'Payment not found': 'Payment not found',
    'Notification not found': 'Notification not found',
    'A delivery of this notification is under way': 'A delivery of this notification is under way',
    'Validation error': 'Validation error',
    'Cannot perform this operation': 'Cannot perform this operation',
    'must be above zero': 'must be above zero',
    'must be greater than 0': 'must be greater than 0',
    'must not exceed 1000000000.00': 'must not exceed 1000000000.00',
    'must be a decimal number in plain notation, e.g. "100.00"': 'must be a number such as 100.00',
    'must be in the future': 'must be in the future',
    'must be at most 45 days ahead': 'must be at most 45 days ahead',
    "must be in the future: the site's sandbox clock, advanced ahead of real time, reads {detail}":
      "must be in the future: the site's sandbox clock, advanced ahead of real time, reads {detail}",
    "must be at most 45 days ahead: the site's sandbox clock, advanced ahead of real time, reads {detail}":
      "must be at most 45 days ahead: the site's sandbox clock, advanced ahead of real time, reads {detail}",
    "must be the payment's currency {detail}": "must be the payment's currency {detail}",
    'The refund is {detail}: only a postponed refund not yet processed can be declined':
      'The refund is {detail}: only a postponed refund not yet processed can be declined',
    'must be an absolute http(s) URL': 'must be an absolute http(s) URL',
    'must be at most {n} characters': 'must be at most {n} characters',
    'must be a string': 'must be a string',
    'must not be empty': 'must not be empty',
    'must not hold control characters': 'must not hold control characters',
    'must be at least {n}': 'must be at least {n}',
    'must be at most {n} (5 days)': 'must be at most {n} (5 days)',
    'must be at most {n}': 'must be at most {n}',
    'must be a whole number of hours': 'must be a whole number of hours',
    'must be at least 1: the clock only moves forward': 'must be at least 1: the clock only moves forward',
    'must be an ISO 8601 date-time with an offset': 'must be an ISO 8601 date-time with an offset',
    'no answer within {n} ms': 'no answer within {n} ms',
    'could not connect: connect ECONNREFUSED {detail}': 'could not connect: the connection was refused ({detail})',
    'could not connect: getaddrinfo ENOTFOUND {detail}': 'could not connect: no such host ({detail})',
    'could not connect: connect ETIMEDOUT {detail}': 'could not connect: the connection timed out ({detail})',
    'could not connect: connect EHOSTUNREACH {detail}': 'could not connect: the host is unreachable ({detail})',
    'could not connect: read ECONNRESET': 'could not connect: the connection was reset',
    'could not connect: {detail}': 'could not connect: {detail}',
    'refused: private address': 'refused: private address',
    'not a URL': 'not a URL',
    'only http(s) URLs are called': 'only http(s) URLs are called',
    'redirects are not followed': 'redirects are not followed',
    'not sent: internal error': 'not sent: internal error',
  } as Record<string, string>,
}

export type CodeWords = typeof codes
