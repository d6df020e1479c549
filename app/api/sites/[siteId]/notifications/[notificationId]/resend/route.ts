import { resendRoute } from '@/lib/api/notification-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = resendRoute
