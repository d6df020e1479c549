// The words of the dashboard's overview in Russian (see ../en/overview.ts).
import type { OverviewMessages } from '../en/overview'

export const overview: OverviewMessages = {
  title: 'Обзор',
  intro: 'Последние {days} дней по часам сайта: с {first} по {last}, дни по времени {zone}. Подсчитано: {now}.',
  asTable: 'Таблицей',
  day: 'День',
  count: 'Платежи',
  share: 'Доля',
  countTitle: 'Платежи по дням',
  countHelp: 'Все платежи, созданные в этот день, в любом статусе.',
  countSummary: 'Столбчатая диаграмма: платежей за {days} дней — {total}; больше всего {day}: {max}.',
  countMax: 'Больше всего за день: {max}',
  allPayments: 'Все платежи',
  paidTitle: 'Оплачено по дням, {currency}',
  paidHelp:
    'Суммы платежей, созданных в этот день и оплаченных (статус «Оплачен»), в валюте {currency}; возвраты не вычитаются.',
  paidSummary: 'Столбчатая диаграмма: оплачено за {days} дней — {total}; больше всего {day}: {max}.',
  paidMax: 'Больше всего за день: {max}',
  paidColumn: 'Оплачено, {currency}',
  paidPayments: 'Оплаченные платежи',
  noPayments: 'За эти дни платежей нет.',
  completedTitle: 'Доля оплаченных среди завершённых',
  completedHelp:
    'Платежи, созданные за эти дни и оплаченные (статус «Оплачен»), среди завершённых: оплаченных или отклонённых. Ожидающие платежи не учитываются.',
  completedSummary: 'Оплачено {share} завершённых платежей: оплачено — {completed}, отклонено — {declined}.',
  completedNone: 'Ни один платёж за эти дни ещё не завершён.',
  waiting: 'Ещё ожидают, не учтены: {n}',
  declinedPayments: 'Отклонённые платежи',
  reasonsTitle: 'Частые причины отказа',
  reasonsHelp: 'Почему были отклонены платежи, созданные за эти дни; сначала самые частые (не больше {top}).',
  reasonsSummary: 'Столбчатая диаграмма: отклонено платежей — {total}; самая частая причина: {reason}, {count}.',
  reasonsNone: 'Ни один платёж за эти дни не отклонён.',
  rank: '№',
  reason: 'Причина',
  otherReasons: 'Другие причины',
  deliveryTitle: 'Доставка уведомлений',
  deliveryHelp:
    'Уведомления, созданные за эти дни, по состоянию доставки: доставлено (получен ответ 2xx), в очереди (впереди первая или повторная попытка), не доставлено (все попытки неудачны).',
  deliverySummary:
    'Столбчатая диаграмма: уведомлений — {total}: доставлено — {delivered}, в очереди — {pending}, не доставлено — {failed}.',
  deliveryNone: 'За эти дни уведомлений не было.',
  state: 'Состояние',
  notifications: 'Уведомления',
  showState: '{state}: список',
}
