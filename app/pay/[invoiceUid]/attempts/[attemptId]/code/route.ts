import { attemptCodeRoute } from '@/lib/pay-form/form-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = attemptCodeRoute
