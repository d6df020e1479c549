// The settings page's words in Russian. `urlReasons` and `clockReasons` put the service's English field
// messages into Russian (`{n}` stands for the number in them).
import type { SettingsMessages } from '../en/settings'
import { audit } from './audit'

export const settings: SettingsMessages = {
  title: 'Настройки',
  urlTitle: 'Адрес для уведомлений',
  urlLabel: 'Адрес для уведомлений',
  urlHelp:
    'Куда сервис отправляет уведомления о платежах, списаниях и возвратах, если в операции не указан свой адрес (callbackUrl). Оставьте поле пустым, чтобы уведомления не отправлялись.',
  urlRefused: 'Адрес {reason}.',
  urlReasons: {
    'must be an absolute http(s) URL': 'должен быть полным адресом http(s)',
    'must be at most 2048 characters': 'должен быть не длиннее 2048 символов',
    // the message of earlier versions, still in older audit entries
    'must not point to a private address': 'не должен указывать на внутренний адрес сети',
    ['must not point to a private address (the service calls one only in the networks its NOTIFY_ALLOW_NETWORKS ' +
    'names, set before it starts: e.g. NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128 for a receiver on its own machine)']:
      'не должен указывать на внутренний адрес сети (сервис обращается к таким адресам только в сетях, названных в ' +
      'его настройке NOTIFY_ALLOW_NETWORKS до запуска: например, NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128 для ' +
      'получателя на той же машине)',
  },
  save: 'Сохранить',
  saving: 'Сохранение…',
  saved: 'Сохранено',
  secretTitle: 'Секрет подписи',
  secretHelp:
    'Уведомления подписываются этим секретом (заголовки Signature и Payin-Signature). Эта страница его не показывает; на машине сервиса его в любой момент выводит команда:',
  secretRotateHelp:
    'Если секрет мог утечь, смените его здесь: новый секрет эта страница покажет один раз, а команда выше напечатает его и позже.',
  neverRotated: 'Не менялся с создания сайта.',
  rotatedAt: 'Последняя смена: {at}.',
  previousSigns: 'Прежний секрет ещё подписывает до {at}.',
  rotate: 'Сменить секрет',
  confirmRotate:
    'Создать новый секрет подписи? Текущий будет подписывать ещё {hours} ч, чтобы обработчик успел перейти на новый.',
  endNow: 'Сразу перестать подписывать текущим секретом (после утечки)',
  newSecret: 'Новый секрет подписи',
  copySecretNow:
    'Скопируйте его в обработчик уведомлений. Эта страница больше его не покажет; команда выше напечатает его в любой момент.',
  graceNote:
    'Прежний секрет подписывает ещё {hours} ч, до {at}: за это время переведите обработчик на новый (или принимайте оба).',
  endedNote: 'Прежний секрет больше не подписывает.',
  tokensTitle: 'API-токены',
  tokensHelp:
    'Токены сайта для API и для входа в кабинет, по первым символам. Токен показывают один раз, при создании; хранится только его хеш.',
  token: 'Токен',
  created: 'Создан',
  state: 'Статус',
  active: 'Действует',
  revokedOn: 'Отозван {at}',
  thisSession: 'эта сессия',
  actions: 'Действия',
  revoke: 'Отозвать',
  confirmRevoke: 'Отозвать токен {hint}…? Запросы с ним будут отклоняться, его сессии в кабинете завершатся.',
  confirmRevokeOwn: 'Отозвать токен {hint}…? Эта сессия открыта с ним: вы выйдете из кабинета.',
  lastActive: 'Последний действующий токен сайта отозвать нельзя: сначала создайте другой.',
  revokedDone: 'Токен {hint}… отозван.',
  createToken: 'Создать токен',
  newToken: 'Новый API-токен',
  copyTokenNow: 'Скопируйте его сейчас и сохраните: больше он показан не будет.',
  copy: 'Копировать',
  copied: 'Скопировано',
  hide: 'Готово',
  // источники, которым разрешено встраивать страницы оплаты
  framesTitle: 'Встраивание',
  framesLabel: 'Разрешённые источники, по одному в строке',
  framesHelp:
    'Страницы, которые могут показывать страницы оплаты ваших счетов во фрейме (iframe) или открывать их библиотекой всплывающего окна и получать их события. Только точные источники, например https://shop.example (http — только на 127.0.0.1 или localhost). Пусто: ни одна страница.',
  framesRefused: 'Не сохранено: {reason}.',
  holdsTitle: 'Удержание средств',
  holdsHelp:
    'Двухстадийный платёж удерживает сумму, пока вы не спишете её или не отмените удержание. Если вы не сделали ни того, ни другого, сервис сделает это через указанное число часов после авторизации: спишет всю удерживаемую сумму или отменит удержание. Изменение касается и уже открытых удержаний.',
  holdsAction: 'По истечении срока',
  holdsCapture: 'Списать полностью',
  holdsReverse: 'Отменить удержание',
  holdsHours: 'Срок, часов (от 1 до 120)',
  holdsHoursRange: 'Введите целое число часов от 1 до 120 (5 дней).',
  holdsNow: {
    capture: 'Списание через {hours} ч после авторизации.',
    reverse: 'Отмена удержания через {hours} ч после авторизации.',
  },
  holdsOutcome: { capture: 'списание через {hours} ч', reverse: 'отмена через {hours} ч' },
  clockTitle: 'Часы песочницы',
  clockHelp:
    'Собственное время сайта: по нему идут все сроки сайта (срок счетов, тайм-аут 3-D Secure, срок действия карт и токенов, даты рекуррентных платежей, повторы уведомлений). Переведите часы вперёд, чтобы увидеть их наступление без ожидания. Назад часы не идут: к реальному времени их возвращает только сброс песочницы (POST …/sandbox/reset, он удаляет тестовые данные сайта).',
  clockNow: 'Время сайта',
  realTime: 'реальное время',
  ahead: 'впереди на {by}',
  advanceBy: 'Перевести вперёд на',
  unit: 'Единица',
  units: { minutes: 'минуты', hours: 'часы', days: 'дни' },
  advance: 'Перевести',
  advancing: 'Перевод…',
  advancedBy: 'Часы переведены вперёд на {by}.',
  wholeNumber: 'Введите целое число, не меньше 1.',
  tooFar: 'Не больше {days} дней за раз.',
  clockRefused: 'Часы не переведены: {reason}.',
  clockReasons: {
    "would take the site's clock more than {n} days ahead of real time":
      'часы сайта ушли бы вперёд от реального времени больше чем на {n} дней',
    'must be at least {n}: the clock only moves forward': 'нужно не меньше {n}: часы идут только вперёд',
    'must be a whole number of seconds': 'нужно целое число секунд',
  },
  publicKeyTitle: 'Публичный ключ',
  publicKeyHelp:
    'Обозначает этот сайт в ссылках на оплату без API (/create?publicKey=…). Больше он ничего не разрешает, поэтому его можно размещать на ваших страницах. Платежи по таким ссылкам двухстадийные и подтверждаются сами по истечении срока удержания.',
  publicKeyExample: 'Ссылка на 100,00 RUB:',
  rotatePublicKey: 'Сменить публичный ключ',
  confirmRotatePublicKey: 'Создать новый публичный ключ? Ссылки с текущим сразу перестанут работать.',
  confirm: 'Подтвердить',
  cancel: 'Отмена',
  working: 'Выполняется…',
  failed: 'Не выполнено: {description}',
  auditTitle: 'Последние изменения',
  none: 'Пока нет.',
  ...audit,
  subject: 'Объект',
  action: {
    'notify-url': 'Адрес для уведомлений',
    'rotate-secret': 'Смена секрета',
    'rotate-public-key': 'Смена публичного ключа',
    'create-token': 'Создание токена',
    'revoke-token': 'Отзыв токена',
    clock: 'Перевод часов',
    holds: 'Удержание средств',
    'frame-origins': 'Разрешённые источники',
    theme: 'Тема страницы оплаты',
    'delete-theme': 'Удаление темы',
  },
  subjects: {
    'signing secret': 'секрет подписи',
    'public key': 'публичный ключ',
    '(none)': '(нет)',
    'sandbox clock': 'часы песочницы',
    holds: 'удержание',
  },
  clockBy: 'на {by}; теперь {ahead}',
  clockTo: 'до {at}; теперь {ahead}',
  outcomes: {
    set: 'задан',
    cleared: 'удалён',
    rotated: 'сменён',
    'rotated, previous ended': 'сменён, прежний сразу отключён',
    created: 'создан',
    revoked: 'отозван',
    deleted: 'удалена',
    'revoked, this session ended': 'отозван, его сессия завершена',
    'refused: last active token': 'отказ: последний действующий токен',
  },
  refused: 'отказ: {reason}',
}
