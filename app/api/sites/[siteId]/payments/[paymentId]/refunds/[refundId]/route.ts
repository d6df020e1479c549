import { refundRoute } from '@/lib/payments/payment-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = refundRoute
