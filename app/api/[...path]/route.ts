// Any other path under /api: the contract's 404.
import { unknownRoute } from '@/lib/http/api-route'

export {
  unknownRoute as GET,
  unknownRoute as POST,
  unknownRoute as PUT,
  unknownRoute as PATCH,
  unknownRoute as DELETE,
  unknownRoute as OPTIONS,
}
