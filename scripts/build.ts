// `npm run build`: the production build of the app (`next build`, its report shown), stamped with the
// sources' hash so that `npm start` serves it without building again.
import { buildIfChanged } from './app-build.ts'

buildIfChanged((line) => console.log(`[payin] ${line}`), { force: true, verbose: true })
