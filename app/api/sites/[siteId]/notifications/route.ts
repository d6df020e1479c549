import { notificationsRoute } from '@/lib/notifications/notification-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = notificationsRoute
