// The mobile balance tab's words in Russian.
import type en from '../../en/pay-methods/mobile'

const mobile: typeof en = {
  tab: { mobile: 'Баланс телефона' },
  words: { phone: 'Номер мобильного телефона', phoneHint: 'Цифры с кодом страны, например 79001234567' },
  errors: { 'phone.invalid': 'Введите от 10 до 15 цифр с кодом страны' },
  refusals: { 'mobile.unavailable': 'Этот счёт можно оплатить только картой' },
}

export default mobile
