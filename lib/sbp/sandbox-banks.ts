// The sandbox's banks of the Faster Payments System: the payer chooses one in the bank app (or names it in the
// sandbox's pay endpoint), and its payer's details are what the payment's `customer` tells, as production's SBP
// notifications do. Fictional people and accounts; the member ids follow the national format (12 digits).

export interface SandboxBank {
  /** the bank's member id in the system (`customer.bankMemberId`) */
  memberId: string
  name: string
  /** the bank's BIC (`customer.bic`) */
  bic: string
  /** the sandbox payer who pays from this bank */
  payer: {
    phone: string
    lastName: string
    firstName: string
    middleName: string
    bankAccountNumber: string
  }
}

export const SANDBOX_BANKS: readonly SandboxBank[] = [
  {
    memberId: '100000000901',
    name: 'Sandbox Bank',
    bic: '044525901',
    payer: {
      phone: '79001112233',
      lastName: 'IVANOV',
      firstName: 'IVAN',
      middleName: 'IVANOVICH',
      bankAccountNumber: '40817810000000000901',
    },
  },
  {
    memberId: '100000000902',
    name: 'Test Savings Bank',
    bic: '044525902',
    payer: {
      phone: '79002223344',
      lastName: 'PETROVA',
      firstName: 'ANNA',
      middleName: 'SERGEEVNA',
      bankAccountNumber: '40817810000000000902',
    },
  },
  {
    memberId: '100000000903',
    name: 'Demo Digital Bank',
    bic: '044525903',
    payer: {
      phone: '79003334455',
      lastName: 'SMIRNOV',
      firstName: 'OLEG',
      middleName: 'PAVLOVICH',
      bankAccountNumber: '40817810000000000903',
    },
  },
]

/** the bank of a member id, or undefined */
export const sandboxBankOf = (memberId: string) => SANDBOX_BANKS.find((b) => b.memberId === memberId)

/** the bank a payment is made from when none is named: the first */
export const DEFAULT_SANDBOX_BANK = SANDBOX_BANKS[0]

/** an SBP payment's `customer`: the payer's details as their bank tells them */
export const payerCustomer = (bank: SandboxBank) => ({
  phone: bank.payer.phone,
  bankAccountNumber: bank.payer.bankAccountNumber,
  bic: bank.bic,
  lastName: bank.payer.lastName,
  firstName: bank.payer.firstName,
  middleName: bank.payer.middleName,
  bankMemberId: bank.memberId,
})
