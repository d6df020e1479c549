// A site's theme on the payment page (lib/themes): its colours as rules added to the page's inline styles (after
// them, so they win), and its logo and name above the card, on the theme's background. The colours were checked when
// the theme was saved (`#rrggbb`, contrast at least 4.5:1 for the page's text on the background and the button's text
// on the button); they are checked again here because they go into a stylesheet.
import type { PageTheme } from '@/lib/themes/theme-service'

const HEX = /^#[0-9a-f]{6}$/

/** the theme's rules, appended to the page's styles; empty when a colour is not `#rrggbb` */
export function themeCss(theme: PageTheme): string {
  const { backgroundColor: bg, buttonColor: button, buttonTextColor: ink } = theme
  if (![bg, button, ink].every((c) => HEX.test(c))) return ''
  return (
    `\n.pay { --theme-bg:${bg}; --theme-button:${button}; --theme-button-ink:${ink}; background:var(--theme-bg) }\n` +
    '.pay button.pay-submit, .pay-sbp-open { background:var(--theme-button); color:var(--theme-button-ink) }\n' +
    '.pay-theme { max-width:26rem; margin:0 auto .75rem; display:flex; align-items:center; gap:.6rem; min-height:48px }\n' +
    '.pay-theme img { display:block; flex:none; object-fit:contain }\n' +
    '.pay-theme-name { font-weight:600; font-size:1.05rem; overflow-wrap:anywhere }\n'
  )
}

/** the theme's logo and name, above the card (the logo is decorative: the name beside it says whose page it is) */
export function ThemeHeader({ theme }: { theme: PageTheme }) {
  return (
    <header className="pay-theme" data-theme={theme.code}>
      {theme.logo && (
        // a same-origin image of known size: nothing for Next.js's image optimiser to do
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={theme.logo.src}
          width={theme.logo.width}
          height={theme.logo.height}
          alt=""
          decoding="async"
          fetchPriority="high"
        />
      )}
      <span className="pay-theme-name">{theme.name}</span>
    </header>
  )
}
