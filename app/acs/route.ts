// acsUrl: the emulated 3-D Secure access-control server
import { challengePage } from '@/lib/acquirer/acs-pages'

export const POST = challengePage
