// What the Apple Pay and Google Pay methods share: the refusal of a token that is not a sandbox test token, and how
// their payments are stored and shown (as card payments of the sandbox's device card).
import { walletOutcome, WALLET_DEVICE_CARDS, WALLET_TEST_TOKENS } from '../../acquirer/wallet-tokens'
import type { Instrument, StoredMethod } from './payment-method'

type Wallet = keyof typeof WALLET_DEVICE_CARDS

export const NOT_A_TEST_TOKEN =
  'is not a sandbox test token (the sandbox cannot decrypt real wallet tokens): use one of ' +
  Object.keys(WALLET_TEST_TOKENS).join(', ')

/** a wallet's payments: two-step unless SALE, no token issued, the device card answered and notified */
export const storedWallet = (methodType: Wallet): StoredMethod => ({
  methodType,
  capturesOnApproval: false,
  issuesTokens: false,
  answersPan: true,
  notifiedPan: (p) => p.maskedPan || null,
})

/** what charging a wallet's test token (as walletTestToken found it) stores and answers */
export const walletCharge = (methodType: Wallet, testToken: string): Instrument => ({
  methodType,
  maskedPan: WALLET_DEVICE_CARDS[methodType],
  answer: walletOutcome(testToken),
})
