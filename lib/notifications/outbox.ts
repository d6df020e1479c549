// Writing notifications, in the transaction (or the statement) of the status change they tell of:
// at most once per change (a unique key), to exactly one URL — the one the resource names (its
// operation's callbackUrl, say), else the site's notification URL; none when there is none of these.
// Its times (created, due) are on the site's sandbox clock. The body comes rendered by its resource
// (lib/payments/payment-notify.ts): the outbox knows no resource.
// The statement is the notification store's (lib/notifications/notification-store.ts): it owns the table.
export { insertNotification, notificationInsert, notificationsInsert, type NewNotification } from './notification-store'
