import { signInRoute } from '@/lib/dashboard/dashboard-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = signInRoute
