// The card tab's words in Russian.
import type en from '../../en/pay-methods/card'

const card: typeof en = {
  tab: { card: 'Карта' },
  words: {
    cardNumber: 'Номер карты',
    expiry: 'Срок действия (ММ/ГГ)',
    cvv: 'Код безопасности (CVV)',
    cvvHint: '3 или 4 цифры на обороте карты',
    cardWaiting: 'Банк обрабатывает платёж…',
  },
  errors: {
    'pan.invalid': 'Введите правильный номер карты',
    'expiry.invalid': 'Введите срок действия в формате ММ/ГГ',
    'expiry.past': 'Срок действия карты истёк',
    'cvv.invalid': 'Введите 3 или 4 цифры',
  },
}

export default card
