import { cardCheckCompleteRoute } from '@/lib/card-checks/card-check-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = cardCheckCompleteRoute
