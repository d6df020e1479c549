// The card tab's words in English (lib/pay-form/methods/card.tsx): the shape every language's card.ts is typed
// against (lib/i18n/pay-method-words.ts says each part).
const card = {
  tab: { card: 'Card' },
  words: {
    cardNumber: 'Card number',
    expiry: 'Expiry date (MM/YY)',
    cvv: 'Security code (CVV)',
    cvvHint: '3 or 4 digits on the back of the card',
    cardWaiting: 'Your bank is processing the payment…',
  },
  errors: {
    'pan.invalid': 'Enter a valid card number',
    'expiry.invalid': 'Enter the expiry date as MM/YY',
    'expiry.past': 'This card has expired',
    'cvv.invalid': 'Enter 3 or 4 digits',
  },
}

export default card
