import { resendNotificationActionRoute } from '@/lib/dashboard/dashboard-notification-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = resendNotificationActionRoute
