// The mobile balance tab's words in English (lib/pay-form/methods/mobile.tsx): the shape every language's mobile.ts
// is typed against.
const mobile = {
  tab: { mobile: 'Mobile balance' },
  words: { phone: 'Mobile phone number', phoneHint: 'Digits with the country code, e.g. 79001234567' },
  errors: { 'phone.invalid': 'Enter 10 to 15 digits with the country code' },
  refusals: { 'mobile.unavailable': 'This bill can be paid by card only' },
}

export default mobile
