'use client'
// The dashboard's navigation landmark; the page shown is marked as current (a link `exact` only on its own address,
// not on the pages under it: the overview, /dashboard).
import Link from 'next/link'
import { usePathname } from 'next/navigation'

export function DashboardNav({
  label,
  links,
}: {
  label: string
  links: { href: string; text: string; exact?: boolean }[]
}) {
  const path = usePathname() ?? ''
  return (
    <nav aria-label={label}>
      <ul>
        {links.map((l) => (
          <li key={l.href}>
            <Link
              prefetch={false}
              href={l.href}
              aria-current={path === l.href || (!l.exact && path.startsWith(`${l.href}/`)) ? 'page' : undefined}
            >
              {l.text}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
