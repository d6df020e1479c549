import { themeDeleteRoute } from '@/lib/dashboard/dashboard-theme-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = themeDeleteRoute
