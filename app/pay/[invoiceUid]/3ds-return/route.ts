import { threeDSReturnRoute } from '@/lib/pay-form/form-endpoints'

export const POST = threeDSReturnRoute
