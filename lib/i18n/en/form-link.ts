// The words of a link without the API (pages/create.tsx: its error pages) and of the bill's fields its payment page
// shows, in English.
export const formLink = {
  title: 'Payment',
  notFoundTitle: 'Payment link not found',
  notFoundText: 'This payment link is not valid. Ask the merchant for a new one.',
  invalidTitle: 'This payment link is incorrect',
  invalidText: 'The merchant made the link with values the payment service does not accept:',
  conflictTitle: 'This bill exists with another amount',
  conflictText: 'A bill with this number was made before for a different amount. Ask the merchant for a new link.',
  takenTitle: 'This bill number is taken',
  takenText: 'A bill with this number exists and this link cannot open it. Ask the merchant for a new link.',
  limitedTitle: 'Too many new bills',
  limitedText: 'This device has made too many bills through payment links. Try again in {minutes} min.',
  failedTitle: 'The bill could not be made',
  failedText: 'Something went wrong. Please try again later.',
  /** the heading of the bill's fields on its payment page */
  fields: 'Order details',
  /** a field's note when the payer may not change it */
  readonly: 'cannot be changed',
}

export type FormLinkMessages = typeof formLink
