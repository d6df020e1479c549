// What the Apple Pay and Google Pay methods share: the refusal of a token that is not a sandbox test token.
import { WALLET_TEST_TOKENS } from '../../acquirer/wallet-tokens'

export const NOT_A_TEST_TOKEN =
  'is not a sandbox test token (the sandbox cannot decrypt real wallet tokens): use one of ' +
  Object.keys(WALLET_TEST_TOKENS).join(', ')
