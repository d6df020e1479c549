// The payment page's words, in English and Russian, chosen by Accept-Language. Field errors travel as
// codes (the keys of `errors`) from the shared schema and the server, and are put into words here.
export type Lang = 'en' | 'ru'

export function pickLanguage(acceptLanguage: string | null | undefined): Lang {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';')
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.split('=')[1] ?? 1)
      return { lang: tag.split('-')[0], q: Number.isFinite(q) ? q : 0, i }
    })
    .filter((x) => x.lang && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
  const first = ranked.find((x) => x.lang === 'en' || x.lang === 'ru')
  return first?.lang === 'ru' ? 'ru' : 'en'
}

const en = {
  title: 'Payment',
  payTo: 'Payment to',
  amount: 'Amount',
  amountToPay: 'Amount to pay',
  payBefore: 'Pay before',
  method: 'Payment method',
  card: 'Card',
  mobile: 'Mobile balance',
  cardNumber: 'Card number',
  expiry: 'Expiry date (MM/YY)',
  cvv: 'Security code (CVV)',
  cvvHint: '3 or 4 digits on the back of the card',
  phone: 'Mobile phone number',
  phoneHint: 'Digits with the country code, e.g. 79001234567',
  pay: 'Pay',
  payAmount: 'Pay {amount}',
  processing: 'Processing the payment…',
  code: 'Confirmation code',
  codeSentTo: 'We sent a confirmation code.',
  confirm: 'Confirm',
  waitingOperator: 'Confirm the payment on your phone. Waiting for the operator…',
  redirecting3ds: 'Redirecting to your bank for a security check…',
  declined: 'The payment was declined.',
  tryAgain: 'Check the details and try again, or use another card.',
  paidTitle: 'This bill is paid',
  paidText: 'Thank you! The payment has been received.',
  backToMerchant: 'Return to the merchant',
  expiredTitle: 'This bill has expired',
  expiredText: 'The time to pay this bill is over. Ask the merchant for a new one.',
  notFoundTitle: 'Bill not found',
  notFoundText: 'Check the link, or ask the merchant for a new one.',
  secure: 'Card details go straight to the payment service and are never stored.',
  sandbox: 'Sandbox: no real money is charged.',
  errorSummary: 'Please correct the highlighted fields.',
  somethingWrong: 'Something went wrong. Please try again.',
  noScript: 'Paying on this page needs JavaScript: turn it on, or open the page in another browser.',
  errors: {
    required: 'Fill in this field',
    'pan.invalid': 'Enter a valid card number',
    'expiry.invalid': 'Enter the expiry date as MM/YY',
    'expiry.past': 'This card has expired',
    'cvv.invalid': 'Enter 3 or 4 digits',
    'phone.invalid': 'Enter 10 to 15 digits with the country code',
    'amount.invalid': 'Enter an amount greater than 0, e.g. 150.00',
    'code.invalid': 'Enter the code from the message',
    'code.wrong': 'Wrong code. Attempts left: {n}',
    'mobile.unavailable': 'This bill can be paid by card only',
    'bill.paused':
      'Too many unsuccessful attempts to pay this bill. For your security, paying is paused: try again in {n} min.',
    'client.slowed': 'Too many payment attempts. Try again in {n} min.',
  },
  reasons: {
    ACQUIRING_DECLINED: 'The bank declined the payment.',
    ACQUIRING_INSUFFICIENT_FUNDS: 'There is not enough money on the account.',
    ACQUIRING_EXPIRED_CARD: 'The card has expired.',
    ACQUIRING_INCORRECT_CVV: 'The security code (CVV) is wrong.',
    TRY_AGAIN_LATER: 'The bank could not process the payment now. Try again later.',
    DECLINED_BY_MPI: 'The security check with your bank did not pass.',
    PAYMENT_EXPIRED_3DS: 'The security check took too long.',
    INVALID_OTP: 'The confirmation code was entered wrong too many times.',
    BILL_ALREADY_PAID: 'This bill has already been paid.',
    BILL_EXPIRED: 'The time to pay this bill is over.',
    other: 'The payment was declined.',
  } as Record<string, string>,
}

export type Messages = typeof en

const ru: Messages = {
  title: 'Оплата',
  payTo: 'Получатель',
  amount: 'Сумма',
  amountToPay: 'Сумма к оплате',
  payBefore: 'Оплатить до',
  method: 'Способ оплаты',
  card: 'Карта',
  mobile: 'Баланс телефона',
  cardNumber: 'Номер карты',
  expiry: 'Срок действия (ММ/ГГ)',
  cvv: 'Код безопасности (CVV)',
  cvvHint: '3 или 4 цифры на обороте карты',
  phone: 'Номер мобильного телефона',
  phoneHint: 'Цифры с кодом страны, например 79001234567',
  pay: 'Оплатить',
  payAmount: 'Оплатить {amount}',
  processing: 'Платёж обрабатывается…',
  code: 'Код подтверждения',
  codeSentTo: 'Мы отправили код подтверждения.',
  confirm: 'Подтвердить',
  waitingOperator: 'Подтвердите платёж на телефоне. Ждём ответа оператора…',
  redirecting3ds: 'Переходим в ваш банк для проверки…',
  declined: 'Платёж отклонён.',
  tryAgain: 'Проверьте данные и попробуйте снова или используйте другую карту.',
  paidTitle: 'Счёт оплачен',
  paidText: 'Спасибо! Платёж получен.',
  backToMerchant: 'Вернуться к продавцу',
  expiredTitle: 'Срок оплаты счёта истёк',
  expiredText: 'Время для оплаты этого счёта вышло. Попросите продавца выставить новый.',
  notFoundTitle: 'Счёт не найден',
  notFoundText: 'Проверьте ссылку или попросите продавца выставить новый счёт.',
  secure: 'Данные карты передаются напрямую платёжному сервису и не сохраняются.',
  sandbox: 'Тестовая среда: реальные деньги не списываются.',
  errorSummary: 'Исправьте отмеченные поля.',
  somethingWrong: 'Что-то пошло не так. Попробуйте ещё раз.',
  noScript: 'Для оплаты на этой странице нужен JavaScript: включите его или откройте страницу в другом браузере.',
  errors: {
    required: 'Заполните поле',
    'pan.invalid': 'Введите правильный номер карты',
    'expiry.invalid': 'Введите срок действия в формате ММ/ГГ',
    'expiry.past': 'Срок действия карты истёк',
    'cvv.invalid': 'Введите 3 или 4 цифры',
    'phone.invalid': 'Введите от 10 до 15 цифр с кодом страны',
    'amount.invalid': 'Введите сумму больше 0, например 150.00',
    'code.invalid': 'Введите код из сообщения',
    'code.wrong': 'Неверный код. Осталось попыток: {n}',
    'mobile.unavailable': 'Этот счёт можно оплатить только картой',
    'bill.paused':
      'Слишком много неудачных попыток оплатить этот счёт. Для вашей безопасности оплата приостановлена: попробуйте снова через {n} мин.',
    'client.slowed': 'Слишком много попыток оплаты. Попробуйте снова через {n} мин.',
  },
  reasons: {
    ACQUIRING_DECLINED: 'Банк отклонил платёж.',
    ACQUIRING_INSUFFICIENT_FUNDS: 'На счёте недостаточно средств.',
    ACQUIRING_EXPIRED_CARD: 'Срок действия карты истёк.',
    ACQUIRING_INCORRECT_CVV: 'Неверный код безопасности (CVV).',
    TRY_AGAIN_LATER: 'Банк сейчас не может провести платёж. Попробуйте позже.',
    DECLINED_BY_MPI: 'Проверка в вашем банке не пройдена.',
    PAYMENT_EXPIRED_3DS: 'Проверка в банке заняла слишком много времени.',
    INVALID_OTP: 'Код подтверждения введён неверно слишком много раз.',
    BILL_ALREADY_PAID: 'Этот счёт уже оплачен.',
    BILL_EXPIRED: 'Время для оплаты этого счёта вышло.',
    other: 'Платёж отклонён.',
  },
}

export const messagesFor = (lang: Lang): Messages => (lang === 'ru' ? ru : en)

/** a field error code (`pan.invalid`, `code.wrong:2`, `bill.paused:<seconds>`) in words */
export function errorText(t: Messages, code: string | undefined): string {
  if (!code) return ''
  const [key, n] = code.split(':')
  const text = (t.errors as Record<string, string>)[key] ?? t.somethingWrong
  // the attempt limits tell seconds; the payer reads minutes
  const shown =
    n && (key === 'bill.paused' || key === 'client.slowed') ? String(Math.max(1, Math.ceil(Number(n) / 60))) : n
  return shown ? text.replace('{n}', shown) : text
}
