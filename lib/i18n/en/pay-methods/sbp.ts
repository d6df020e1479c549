// The Faster Payments (SBP) tab's words in English (lib/pay-form/methods/sbp.tsx): the shape every language's
// sbp.ts is typed against.
const sbp = {
  tab: { sbp: 'SBP' },
  words: {
    sbpHint: 'Pay from your bank app through the Faster Payments System: you will get a QR code.',
    sbpScan: "Scan the QR code with your bank app's camera.",
    sbpQr: 'QR code of the payment',
    sbpOpen: 'Open in bank app',
    sbpWaiting: 'Waiting for the payment in your bank app…',
  },
  errors: {},
  refusals: { 'sbp.unavailable': 'This bill cannot be paid by SBP' },
}

export default sbp
