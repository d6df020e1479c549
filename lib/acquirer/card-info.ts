// What the sandbox tells about a card's issuer, by its BIN (first six digits), as production's
// notifications carry it in `paymentCardInfo`. Fixed sandbox values: no BIN database is consulted.

export interface PaymentCardInfo {
  issuingCountry: string
  issuingBank: string
  paymentSystem: string
  fundingSource: string
  paymentSystemProduct: string
}

const SANDBOX_BANK = 'Payin Sandbox Bank'

/** by the first digits of a card number (a masked PAN keeps its first six) */
export function cardInfoOf(maskedPan: string): PaymentCardInfo {
  const bin = Number(maskedPan.slice(0, 6))
  const prefix4 = Math.floor(bin / 100)
  const base = { issuingCountry: '643', issuingBank: SANDBOX_BANK }
  if (prefix4 >= 2200 && prefix4 <= 2204)
    return { ...base, paymentSystem: 'MIR', fundingSource: 'DEBIT', paymentSystemProduct: 'MIR|Mir Classic' }
  if (maskedPan.startsWith('4'))
    return { ...base, paymentSystem: 'VISA', fundingSource: 'CREDIT', paymentSystemProduct: 'F|Visa Classic' }
  if ((prefix4 >= 5100 && prefix4 <= 5599) || (prefix4 >= 2221 && prefix4 <= 2720))
    return {
      ...base,
      paymentSystem: 'MASTERCARD',
      fundingSource: 'DEBIT',
      paymentSystemProduct: 'MDS|Debit Mastercard',
    }
  // production's UnionPay test cards (6056…)
  if (maskedPan.startsWith('62') || maskedPan.startsWith('6056'))
    return { ...base, paymentSystem: 'UNIONPAY', fundingSource: 'DEBIT', paymentSystemProduct: 'UP|UnionPay Classic' }
  return { ...base, paymentSystem: 'UNKNOWN', fundingSource: 'UNKNOWN', paymentSystemProduct: 'UNKNOWN' }
}
