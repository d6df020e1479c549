// The settings page's words, in English and Russian (the dashboard's language: Accept-Language, see
// app/dashboard/dashboard-request.ts). The service's own words for a refused URL (the contract's field
// messages, in English) are put into Russian through `urlReasons`; others are shown as they come.
import type { Lang } from '../pay-form/messages'
import { AUDIT_LABELS } from './audit-messages'

const en = {
  title: 'Settings',
  // the notification URL
  urlTitle: 'Notification URL',
  urlLabel: 'Notification URL',
  urlHelp:
    'Where the service posts the notifications of payments, captures and refunds that name no callback URL of their own. Leave it empty for no notifications.',
  urlRefused: 'The URL {reason}.',
  urlReasons: {} as Record<string, string>,
  save: 'Save',
  saving: 'Saving…',
  saved: 'Saved',
  // the signing secret
  secretTitle: 'Signing secret',
  secretHelp:
    'Notifications are signed with this secret (the Signature and Payin-Signature headers). It is not shown here: it is shown once, when it is made. If you have lost it, rotate it.',
  neverRotated: 'Not rotated since the site was created.',
  rotatedAt: 'Last rotated: {at}.',
  previousSigns: 'The previous secret still signs until {at}.',
  rotate: 'Rotate secret',
  confirmRotate:
    'Make a new signing secret? The current one keeps signing for {hours} hours, so that your handler can switch.',
  endNow: 'Stop signing with the current secret at once (after a leak)',
  newSecret: 'New signing secret',
  copySecretNow: 'Copy it now into your notification handler: it will not be shown again.',
  graceNote:
    'The previous secret keeps signing for {hours} hours, until {at}: switch your handler meanwhile (or let it accept either secret).',
  endedNote: 'The previous secret no longer signs.',
  // API tokens
  tokensTitle: 'API tokens',
  tokensHelp:
    'Tokens of this site for the API and for signing in here, by their first characters. A token is shown once, when it is created; only a hash of it is kept.',
  token: 'Token',
  created: 'Created',
  state: 'Status',
  active: 'Active',
  revokedOn: 'Revoked {at}',
  thisSession: 'this session',
  actions: 'Actions',
  revoke: 'Revoke',
  confirmRevoke: 'Revoke token {hint}…? Requests with it will be refused and its dashboard sessions end.',
  confirmRevokeOwn: 'Revoke token {hint}…? This session was opened with it: you will be signed out.',
  lastActive: 'The site’s last active token cannot be revoked: create another one first.',
  revokedDone: 'Token {hint}… revoked.',
  createToken: 'Create token',
  newToken: 'New API token',
  copyTokenNow: 'Copy it now and keep it safe: it will not be shown again.',
  copy: 'Copy',
  copied: 'Copied',
  hide: 'Done',
  // the sandbox clock
  clockTitle: 'Sandbox clock',
  clockHelp:
    'The site’s own time: every time rule of the site reads it (bill deadlines, the 3-D Secure timeout, card and token expiry, recurrent payments’ dates, notification retries). Move it forward to see them happen without waiting. It never goes back: only a sandbox reset (POST …/sandbox/reset, which deletes the site’s test data) returns it to real time.',
  clockNow: 'Site time',
  realTime: 'real time',
  ahead: '{by} ahead',
  advanceBy: 'Advance by',
  unit: 'Unit',
  units: { minutes: 'minutes', hours: 'hours', days: 'days' },
  advance: 'Advance',
  advancing: 'Advancing…',
  advancedBy: 'Moved forward by {by}.',
  wholeNumber: 'Enter a whole number, 1 or more.',
  tooFar: 'At most {days} days at once.',
  clockRefused: 'Not moved: the advance {reason}.',
  // the service's field messages with their numbers as {n}
  clockReasons: {} as Record<string, string>,
  // shared
  confirm: 'Confirm',
  cancel: 'Cancel',
  working: 'Working…',
  failed: 'Not done: {description}',
  // the audit entries
  auditTitle: 'Recent changes',
  none: 'None yet.',
  ...AUDIT_LABELS.en,
  subject: 'Subject',
  action: {
    'notify-url': 'Notification URL',
    'rotate-secret': 'Secret rotated',
    'create-token': 'Token created',
    'revoke-token': 'Token revoked',
    clock: 'Clock advanced',
  } as Record<string, string>,
  subjects: { 'signing secret': 'signing secret', '(none)': '(none)', 'sandbox clock': 'sandbox clock' } as Record<
    string,
    string
  >,
  // an advance's outcome
  clockBy: 'by {by}; now {ahead}',
  clockTo: 'to {at}; now {ahead}',
  outcomes: {
    set: 'set',
    cleared: 'cleared',
    rotated: 'rotated',
    'rotated, previous ended': 'rotated, previous ended at once',
    created: 'created',
    revoked: 'revoked',
    'revoked, this session ended': 'revoked, its session ended',
    'refused: last active token': 'refused: the last active token',
  } as Record<string, string>,
  refused: 'refused: {reason}',
}

export type SettingsMessages = typeof en

const ru: SettingsMessages = {
  title: 'Настройки',
  urlTitle: 'Адрес для уведомлений',
  urlLabel: 'Адрес для уведомлений',
  urlHelp:
    'Куда сервис отправляет уведомления о платежах, списаниях и возвратах, если в операции не указан свой адрес (callbackUrl). Оставьте поле пустым, чтобы уведомления не отправлялись.',
  urlRefused: 'Адрес {reason}.',
  urlReasons: {
    'must be an absolute http(s) URL': 'должен быть полным адресом http(s)',
    'must be at most 2048 characters': 'должен быть не длиннее 2048 символов',
    'must not point to a private address': 'не должен указывать на внутренний адрес сети',
  },
  save: 'Сохранить',
  saving: 'Сохранение…',
  saved: 'Сохранено',
  secretTitle: 'Секрет подписи',
  secretHelp:
    'Уведомления подписываются этим секретом (заголовки Signature и Payin-Signature). Здесь он не показывается: его показывают один раз, когда он создан. Если секрет утерян, смените его.',
  neverRotated: 'Не менялся с создания сайта.',
  rotatedAt: 'Последняя смена: {at}.',
  previousSigns: 'Прежний секрет ещё подписывает до {at}.',
  rotate: 'Сменить секрет',
  confirmRotate:
    'Создать новый секрет подписи? Текущий будет подписывать ещё {hours} ч, чтобы обработчик успел перейти на новый.',
  endNow: 'Сразу перестать подписывать текущим секретом (после утечки)',
  newSecret: 'Новый секрет подписи',
  copySecretNow: 'Скопируйте его сейчас в обработчик уведомлений: больше он показан не будет.',
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
  confirm: 'Подтвердить',
  cancel: 'Отмена',
  working: 'Выполняется…',
  failed: 'Не выполнено: {description}',
  auditTitle: 'Последние изменения',
  none: 'Пока нет.',
  ...AUDIT_LABELS.ru,
  subject: 'Объект',
  action: {
    'notify-url': 'Адрес для уведомлений',
    'rotate-secret': 'Смена секрета',
    'create-token': 'Создание токена',
    'revoke-token': 'Отзыв токена',
    clock: 'Перевод часов',
  },
  subjects: { 'signing secret': 'секрет подписи', '(none)': '(нет)', 'sandbox clock': 'часы песочницы' },
  clockBy: 'на {by}; теперь {ahead}',
  clockTo: 'до {at}; теперь {ahead}',
  outcomes: {
    set: 'задан',
    cleared: 'удалён',
    rotated: 'сменён',
    'rotated, previous ended': 'сменён, прежний сразу отключён',
    created: 'создан',
    revoked: 'отозван',
    'revoked, this session ended': 'отозван, его сессия завершена',
    'refused: last active token': 'отказ: последний действующий токен',
  },
  refused: 'отказ: {reason}',
}

export const settingsMessages = (lang: Lang): SettingsMessages => (lang === 'ru' ? ru : en)

/** a field message of the service's (or of the form's own check) in the page's words */
export const urlReason = (t: SettingsMessages, reason: string) => t.urlReasons[reason] ?? reason

/** a refusal of the clock's advance (a field message of the service's, in English) in the page's words */
export function clockReason(t: SettingsMessages, reason: string): string {
  const n = /\d+/.exec(reason)?.[0] ?? ''
  const shown = t.clockReasons[reason.replace(/\d+/, '{n}')]
  return shown ? shown.replace('{n}', n) : reason
}

/** an audit entry's outcome in the page's words ("refused: <the service's reason>" included) */
export function shownOutcome(t: SettingsMessages, outcome: string): string {
  if (t.outcomes[outcome]) return t.outcomes[outcome]
  const refused = /^refused: (.*)$/.exec(outcome)
  return refused ? t.refused.replace('{reason}', urlReason(t, refused[1])) : outcome
}
