// Above a list filtered to the overview's days (a link of the overview): which days, and the way back to all of them.
import Link from 'next/link'
import { fill } from '@/lib/i18n/fill'
import { shownDay } from '@/lib/i18n/format'
import { textsOf, type Lang } from '@/lib/i18n/languages'

export function SinceNotice({ day, lang, allHref }: { day: string; lang: Lang; allHref: string }) {
  const t = textsOf(lang).dashboard
  return (
    <p className="dash-card">
      {fill(t.madeSince, { day: shownDay(day, lang) })}{' '}
      <Link prefetch={false} href={allHref}>
        {t.allDates}
      </Link>
    </p>
  )
}
