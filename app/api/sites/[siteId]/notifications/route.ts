import { notificationsRoute } from '@/lib/api/notification-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = notificationsRoute
