// The card verification API's endpoints (production's paths: …/validation/card/requests/{requestUid} and its
// /complete). Route files under app/api re-export these.
import { z } from 'zod'
import { apiRoute, endpoint } from '../api/api-route'
import { idSchema } from '../wire/common-schemas'
import { cardCheckCompleteSchema, cardCheckRequestSchema } from './card-check-request'
import { completeCardCheck, createCardCheck, readCardCheckAnswer } from './card-check-service'
import { cardCheckAnswerSchema } from './card-check-wire'

const checkPath = z.object({ siteId: idSchema, requestUid: idSchema })

const ON = '2026-11-27T12:00:00+03:00'
const cardInfo = {
  issuingCountry: '643',
  issuingBank: 'Payin Sandbox Bank',
  paymentSystem: 'VISA',
  fundingSource: 'CREDIT',
  paymentSystemProduct: 'F|Visa Classic',
}
const valid = {
  requestUid: 'check-1001',
  status: 'SUCCESS',
  isValidCard: true,
  threeDsStatus: 'WITHOUT',
  checkOperationDate: ON,
  cardInfo,
  createdToken: {
    token: 'pt_Xq3…',
    name: '411111******1111',
    expiredDate: '2030-12-31T00:00:00+03:00',
    account: 'customer-42',
  },
}
const waiting = {
  requestUid: 'check-1002',
  status: 'WAITING_3DS',
  requirements: { pareq: 'eyJjaGVjayI6…', acsUrl: 'http://localhost:3000/acs' },
}

export const cardCheckRoute = apiRoute({
  PUT: endpoint({
    params: checkPath,
    body: cardCheckRequestSchema,
    response: cardCheckAnswerSchema,
    doc: {
      operationId: 'checkCard',
      tag: 'Card verification',
      summary: 'Verify a card',
      description: [
        'Checks a card without charging it: no money moves and no payment is written. The outcome follows the test cards, as for payments: an approved card answers `SUCCESS` with `isValidCard: true`, a declining one (or an expired one) `SUCCESS` with `isValidCard: false`.',
        "The 3-D Secure card (4000000000003220, and production's test cards with CVV 849 or a holder name containing 3ds) answers `WAITING_3DS` with `requirements`: the payer's browser posts the PaReq to `acsUrl` as for a payment, then you send the PaRes to complete. Production's test cards of expiry months 03 and 04 (whose payments answer 3 s later) are decided at once: valid and not valid.",
        'With `tokenizationData.account`, a valid card gets a payment token (`createdToken`) that pays TOKEN payments of this site for that account. The end of a verification is told in a CHECK_CARD notification.',
        'Idempotent: the same request again answers the verification as it is now; another request under the same requestUid is a 409.',
      ].join('\n\n'),
      errors: ['payin.resource.not.found', 'payin.request.conflict'],
      requestExamples: {
        token: {
          summary: 'A card, with a payment token asked for',
          value: {
            cardData: { pan: '4111111111111111', expiryDate: '12/30', cvv2: '123', holderName: 'CARDHOLDER NAME' },
            tokenizationData: { account: 'customer-42' },
          },
        },
        threeDS: {
          summary: 'The 3-D Secure card',
          value: { cardData: { pan: '4000000000003220', expiryDate: '12/30', cvv2: '123' } },
        },
      },
      responseExamples: {
        valid: { summary: 'A valid card, its token issued', value: valid },
        waiting: { summary: 'Awaiting 3-D Secure', value: waiting },
      },
    },
    handle: ({ siteId, params, body }) => createCardCheck(siteId, params.requestUid, body),
  }),
  GET: endpoint({
    params: checkPath,
    response: cardCheckAnswerSchema,
    doc: {
      operationId: 'readCardCheck',
      tag: 'Card verification',
      summary: 'Read a card verification',
      description:
        "Its status now: a verification made through the API, or on a CHECK_CARD bill's payment page (requestUid: the bill's billId).",
      errors: ['payin.resource.not.found'],
      responseExamples: { valid: { summary: 'A valid card', value: valid } },
    },
    handle: ({ siteId, params }) => readCardCheckAnswer(siteId, params.requestUid),
  }),
})

export const cardCheckCompleteRoute = apiRoute({
  POST: endpoint({
    params: checkPath,
    body: cardCheckCompleteSchema,
    response: cardCheckAnswerSchema,
    doc: {
      operationId: 'completeCardCheck',
      tag: 'Card verification',
      summary: 'Complete 3-D Secure of a card verification',
      description: [
        'A `WAITING_3DS` verification: send the PaRes the access-control page posted to your TermUrl. A passed check ends it `SUCCESS` with `threeDsStatus: PASSED` (valid as the card is), a failed one `SUCCESS` with `isValidCard: false` and `threeDsStatus: NOT_PASSED`; a PaRes not issued for this verification is a 400 and it keeps waiting.',
        'Repeating a passed complete answers the verification unchanged; complete on a verification that never waited, or whose check failed, is a 409.',
      ].join('\n\n'),
      errors: ['payin.resource.not.found', 'payin.incorrect-method-invocation'],
      requestExamples: { pares: { summary: '3-D Secure', value: { pares: 'eyJjaGVjayI6…' } } },
      responseExamples: {
        passed: { summary: 'Passed', value: { ...valid, threeDsStatus: 'PASSED', requestUid: 'check-1002' } },
      },
    },
    handle: ({ siteId, params, body }) => completeCardCheck(siteId, params.requestUid, body),
  }),
})
