// The payment page's methods in English (lib/pay-form/methods), in the order of its tabs: each one's tab label,
// field words, field error codes and refusal (lib/i18n/pay-method-words.ts), joined into the page's words.
export const payMethods = {
  card: {
    tab: { card: 'Card' },
    words: {
      cardNumber: 'Card number',
      expiry: 'Expiry date (MM/YY)',
      cvv: 'Security code (CVV)',
      cvvHint: '3 or 4 digits on the back of the card',
    },
    errors: {
      'pan.invalid': 'Enter a valid card number',
      'expiry.invalid': 'Enter the expiry date as MM/YY',
      'expiry.past': 'This card has expired',
      'cvv.invalid': 'Enter 3 or 4 digits',
    },
  },
  mobile: {
    tab: { mobile: 'Mobile balance' },
    words: { phone: 'Mobile phone number', phoneHint: 'Digits with the country code, e.g. 79001234567' },
    errors: { 'phone.invalid': 'Enter 10 to 15 digits with the country code' },
    refusals: { 'mobile.unavailable': 'This bill can be paid by card only' },
  },
}

export type PayMethodsMessages = typeof payMethods
