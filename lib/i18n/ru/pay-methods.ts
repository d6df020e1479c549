// The payment page's methods in Russian.
import type { PayMethodsMessages } from '../en/pay-methods'

export const payMethods: PayMethodsMessages = {
  card: {
    tab: { card: 'Карта' },
    words: {
      cardNumber: 'Номер карты',
      expiry: 'Срок действия (ММ/ГГ)',
      cvv: 'Код безопасности (CVV)',
      cvvHint: '3 или 4 цифры на обороте карты',
    },
    errors: {
      'pan.invalid': 'Введите правильный номер карты',
      'expiry.invalid': 'Введите срок действия в формате ММ/ГГ',
      'expiry.past': 'Срок действия карты истёк',
      'cvv.invalid': 'Введите 3 или 4 цифры',
    },
  },
  mobile: {
    tab: { mobile: 'Баланс телефона' },
    words: { phone: 'Номер мобильного телефона', phoneHint: 'Цифры с кодом страны, например 79001234567' },
    errors: { 'phone.invalid': 'Введите от 10 до 15 цифр с кодом страны' },
    refusals: { 'mobile.unavailable': 'Этот счёт можно оплатить только картой' },
  },
}
