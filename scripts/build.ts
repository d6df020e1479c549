// `npm run build`: the production build (the payment page's script, then `next build` with its report
// shown), stamped with the sources' hash so that `npm start` serves it without building again.
import { buildIfChanged } from './app-build.ts'

await buildIfChanged((line) => console.log(`[payin] ${line}`), { force: true, verbose: true })
