import { rotatePublicKeyRoute } from '@/lib/dashboard/dashboard-settings-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = rotatePublicKeyRoute
