// An SBP payment's wait on the payment page: its QR code to scan with the bank app on a wide screen, or, on a phone
// (which cannot scan its own screen), the button that opens the code's link in the bank app. Both are in the page;
// its styles (pay-styles.ts) show one by the screen's width.
import type { PayFormMessages } from '@/lib/i18n/en/pay-form'
import type { BankAppStep } from '@/lib/pay-form/form-service'

export function BankAppWait({ t, step }: { t: PayFormMessages; step: BankAppStep }) {
  return (
    <div className="pay-sbp" data-testid="sbp">
      <div className="pay-sbp-qr">
        {/* a data: URL drawn by the service: nothing for next/image to optimise, and the page's script stays small */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={step.qr} alt={t.sbpQr} width={240} height={240} />
        <p className="pay-hint">{t.sbpScan}</p>
      </div>
      <a className="pay-sbp-open" href={step.link}>
        {t.sbpOpen}
      </a>
    </div>
  )
}
