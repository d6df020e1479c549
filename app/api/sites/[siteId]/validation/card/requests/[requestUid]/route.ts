import { cardCheckRoute } from '@/lib/card-checks/card-check-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = cardCheckRoute
