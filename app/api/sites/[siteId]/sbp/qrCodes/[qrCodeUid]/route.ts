import { qrCodeRoute } from '@/lib/sbp/qr-code-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = qrCodeRoute
