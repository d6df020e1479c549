import { refundDeclineRoute } from '@/lib/payments/payment-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = refundDeclineRoute
