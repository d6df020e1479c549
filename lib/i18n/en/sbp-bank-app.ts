// The sandbox bank app's words in English (app/sbp/[publicId]/page.tsx: the page an SBP QR code's payload opens).
export const sbpBankApp = {
  title: 'Sandbox bank app',
  banner: 'Sandbox bank app: a test bank of the payment sandbox. No real money moves.',
  payTo: 'Payment to',
  amount: 'Amount',
  purpose: 'Purpose',
  linkTo: 'Link your account to',
  linkText: 'The merchant asks to link your bank account for payments in one tap (Faster Payments System).',
  bank: 'Pay from',
  bankToLink: 'Account at',
  pay: 'Pay',
  link: 'Link account',
  decline: 'Decline',
  paidTitle: 'Paid',
  paidText: 'The payment went through. You can return to the merchant.',
  linkedTitle: 'Account linked',
  linkedText: 'The merchant can now take payments from this account.',
  declinedTitle: 'Declined',
  declinedText: 'You declined this payment. Nothing was charged.',
  withdrawnTitle: 'No longer payable',
  withdrawnText:
    'The shop no longer takes this payment: its bill was paid another way or has expired. Nothing was charged.',
  expiredTitle: 'This QR code has expired',
  expiredText: 'Its time to pay is over. Ask the merchant for a new one.',
  pendingTitle: 'Payment under way',
  pendingText: 'This QR code is being paid with a linked account.',
  notFoundTitle: 'QR code not found',
  notFoundText: 'Check the link, or scan the code again.',
  backToMerchant: 'Return to the merchant',
}

export type SbpBankAppMessages = typeof sbpBankApp
