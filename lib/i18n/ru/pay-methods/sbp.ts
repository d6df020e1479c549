// The Faster Payments (SBP) tab's words in Russian.
import type en from '../../en/pay-methods/sbp'

const sbp: typeof en = {
  tab: { sbp: 'СБП' },
  words: {
    sbpHint: 'Оплата в приложении вашего банка через Систему быстрых платежей: вы получите QR-код.',
    sbpScan: 'Отсканируйте QR-код камерой в приложении банка.',
    sbpQr: 'QR-код платежа',
    sbpOpen: 'Открыть в приложении банка',
    sbpWaiting: 'Ждём оплаты в приложении банка…',
  },
  errors: {},
  refusals: { 'sbp.unavailable': 'Этот счёт нельзя оплатить через СБП' },
}

export default sbp
