// The words of a link without the API and of the bill's fields its payment page shows, in Russian.
import type { FormLinkMessages } from '../en/form-link'

export const formLink: FormLinkMessages = {
  title: 'Оплата',
  notFoundTitle: 'Ссылка на оплату не найдена',
  notFoundText: 'Эта ссылка на оплату недействительна. Попросите у продавца новую.',
  invalidTitle: 'В ссылке на оплату ошибка',
  invalidText: 'Продавец составил ссылку со значениями, которые платёжный сервис не принимает:',
  conflictTitle: 'Счёт с этим номером выставлен на другую сумму',
  conflictText: 'Счёт с этим номером уже выставлен на другую сумму. Попросите у продавца новую ссылку.',
  takenTitle: 'Номер счёта уже занят',
  takenText: 'Счёт с этим номером уже есть, и эта ссылка не может его открыть. Попросите у продавца новую ссылку.',
  limitedTitle: 'Слишком много новых счетов',
  limitedText: 'С этого устройства создано слишком много счетов по ссылкам. Повторите через {minutes} мин.',
  failedTitle: 'Не удалось выставить счёт',
  failedText: 'Что-то пошло не так. Попробуйте позже.',
  fields: 'Данные заказа',
  readonly: 'изменить нельзя',
}
