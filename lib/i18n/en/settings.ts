// The settings page's words in English. The service's own words for a refused URL or clock advance (the
// contract's field messages, in English) are shown as they come: `urlReasons` and `clockReasons` are empty here.
import { audit } from './audit'

export const settings = {
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
    "Notifications are signed with this secret (the Signature and Payin-Signature headers). This page does not show it; on the service's machine, this command prints it at any time:",
  secretRotateHelp:
    'If it may have leaked, rotate it here: the new secret is shown below once, and the command above prints it later.',
  neverRotated: 'Not rotated since the site was created.',
  rotatedAt: 'Last rotated: {at}.',
  previousSigns: 'The previous secret still signs until {at}.',
  rotate: 'Rotate secret',
  confirmRotate:
    'Make a new signing secret? The current one keeps signing for {hours} hours, so that your handler can switch.',
  endNow: 'Stop signing with the current secret at once (after a leak)',
  newSecret: 'New signing secret',
  copySecretNow:
    'Copy it into your notification handler. This page will not show it again; the command above prints it at any time.',
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
  // the origins that may frame the payment pages
  framesTitle: 'Embedding',
  framesLabel: 'Allowed origins, one per line',
  framesHelp:
    "The pages that may show your bills' payment pages in an iframe, or open them with the checkout popup library, and hear their events. Exact origins only, such as https://shop.example (http only on 127.0.0.1 or localhost). Empty: no page may.",
  framesRefused: 'Not saved: {reason}.',
  // holds
  holdsTitle: 'Holds',
  holdsHelp:
    'A two-step payment (one without SALE) holds its amount until you capture or reverse it. If you do neither, the service does it this many hours after the authorisation: it captures all the payment still holds, or reverses it. A change applies to the holds open now too.',
  holdsAction: 'At the end of the period',
  holdsCapture: 'Capture in full',
  holdsReverse: 'Reverse',
  holdsHours: 'Period, hours (1 to 120)',
  holdsHoursRange: 'Enter whole hours, 1 to 120 (5 days).',
  holdsNow: {
    capture: 'Captured in full {hours} h after the authorisation.',
    reverse: 'Reversed {hours} h after the authorisation.',
  } as Record<string, string>,
  holdsOutcome: { capture: 'capture after {hours} h', reverse: 'reverse after {hours} h' } as Record<string, string>,
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
  // the public key of links without the API
  publicKeyTitle: 'Public key',
  publicKeyHelp:
    'Names this site in payment links made without the API (/create?publicKey=…). It authorises nothing else, so it may appear in your pages. Payments made through such links are two-step and confirm themselves after the hold period.',
  publicKeyExample: 'A link for 100.00 RUB:',
  rotatePublicKey: 'Rotate public key',
  confirmRotatePublicKey: 'Make a new public key? Links with the current one stop working at once.',
  // shared
  confirm: 'Confirm',
  cancel: 'Cancel',
  working: 'Working…',
  failed: 'Not done: {description}',
  // the audit entries
  auditTitle: 'Recent changes',
  none: 'None yet.',
  ...audit,
  subject: 'Subject',
  action: {
    'notify-url': 'Notification URL',
    'rotate-secret': 'Secret rotated',
    'rotate-public-key': 'Public key rotated',
    'create-token': 'Token created',
    'revoke-token': 'Token revoked',
    clock: 'Clock advanced',
    holds: 'Holds',
    'frame-origins': 'Allowed origins',
    theme: 'Payment page theme',
    'delete-theme': 'Theme deleted',
  } as Record<string, string>,
  subjects: {
    'signing secret': 'signing secret',
    'public key': 'public key',
    '(none)': '(none)',
    'sandbox clock': 'sandbox clock',
    holds: 'holds',
  } as Record<string, string>,
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
    deleted: 'deleted',
    'revoked, this session ended': 'revoked, its session ended',
    'refused: last active token': 'refused: the last active token',
  } as Record<string, string>,
  refused: 'refused: {reason}',
}

export type SettingsMessages = typeof settings
