// The payment page's words in English (the language every other one is typed against). Field errors travel as
// codes (the keys of `errors`) from the shared schema and the server; `reasons` names the declines. Each method's
// words are its file in pay-methods/, put in their places here.
import { joined } from '../pay-method-words'
import { payMethods } from './pay-methods/registered.generated'

export const payForm = {
  title: 'Payment',
  payTo: 'Payment to',
  amount: 'Amount',
  amountToPay: 'Amount to pay',
  payBefore: 'Pay before',
  method: 'Payment method',
  ...joined(payMethods, 'tab'),
  ...joined(payMethods, 'words'),
  pay: 'Pay',
  payAmount: 'Pay {amount}',
  processing: 'Processing the payment…',
  code: 'Confirmation code',
  codeSentTo: 'We sent a confirmation code.',
  confirm: 'Confirm',
  waitingOperator: 'Confirm the payment on your phone. Waiting for the operator…',
  redirecting3ds: 'Redirecting to your bank for a security check…',
  declined: 'The payment was declined.',
  tryAgain: 'Check the details and try again, or use another card.',
  paidTitle: 'This bill is paid',
  paidText: 'Thank you! The payment has been received.',
  backToMerchant: 'Return to the merchant',
  expiredTitle: 'This bill has expired',
  expiredText: 'The time to pay this bill is over. Ask the merchant for a new one.',
  noMethodTitle: 'This bill cannot be paid here',
  noMethodText: 'None of the ways to pay this bill is offered on this page. Ask the merchant for another way to pay.',
  notFoundTitle: 'Bill not found',
  notFoundText: 'Check the link, or ask the merchant for a new one.',
  secure: 'Card details go straight to the payment service and are never stored.',
  sandbox: 'Sandbox: no real money is charged.',
  errorSummary: 'Please correct the highlighted fields.',
  somethingWrong: 'Something went wrong. Please try again.',
  noScript: 'Paying on this page needs JavaScript: turn it on, or open the page in another browser.',
  errors: {
    required: 'Fill in this field',
    ...joined(payMethods, 'errors'),
    'amount.invalid': 'Enter an amount greater than 0, e.g. 150.00',
    'code.invalid': 'Enter the code from the message',
    'code.wrong': 'Wrong code. Attempts left: {n}',
    ...joined(payMethods, 'refusals'),
    'method.unavailable': 'This bill cannot be paid this way',
    'bill.paused':
      'Too many unsuccessful attempts to pay this bill. For your security, paying is paused: try again in {n} min.',
    'client.slowed': 'Too many payment attempts. Try again in {n} min.',
  },
  reasons: {
    ACQUIRING_DECLINED: 'The bank declined the payment.',
    ACQUIRING_INSUFFICIENT_FUNDS: 'There is not enough money on the account.',
    ACQUIRING_EXPIRED_CARD: 'The card has expired.',
    ACQUIRING_INCORRECT_CVV: 'The security code (CVV) is wrong.',
    TRY_AGAIN_LATER: 'The bank could not process the payment now. Try again later.',
    DECLINED_BY_MPI: 'The security check with your bank did not pass.',
    PAYMENT_EXPIRED_3DS: 'The security check took too long.',
    INVALID_OTP: 'The confirmation code was entered wrong too many times.',
    BILL_ALREADY_PAID: 'This bill has already been paid.',
    BILL_EXPIRED: 'The time to pay this bill is over.',
    SBP_DECLINED_BY_PAYER: 'You declined the payment in your bank app.',
    SBP_QR_EXPIRED: 'The QR code expired before it was paid.',
    other: 'The payment was declined.',
  } as Record<string, string>,
}

export type PayFormMessages = typeof payForm
