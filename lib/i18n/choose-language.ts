// The language of a request, from its Accept-Language: the payment page, the dashboard and the root layout
// choose alike. The tags are ranked by q (ties in the header's order), q=0 refuses one, and the first whose
// primary subtag the service speaks wins (`ru-RU` is Russian); none of them: the default, English.
import { DEFAULT_LANG, isLang, type Lang } from './languages'

export function chooseLanguage(acceptLanguage: string | null | undefined): Lang {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';')
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.split('=')[1] ?? 1)
      return { lang: tag.split('-')[0], q: Number.isFinite(q) ? q : 0, i }
    })
    .filter((x) => x.lang && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
  const first = ranked.find((x) => isLang(x.lang))?.lang
  return first && isLang(first) ? first : DEFAULT_LANG
}
