/**
 * The shared page shell: server-rendered HTML with inline CSS, no scripts (but the handler's own
 * passkey script, on a sign-in page with a passkey provider) and no outside requests.
 * Light and dark come from `prefers-color-scheme` (or the theme's `colorScheme`); focus is always
 * visible; every colour pair meets WCAG AA contrast.
 */
import { escapeHtml, hiddenInputs } from "../../lib/html.js"
import type { AuthTheme } from "../options.js"

export { escapeHtml }

/**
 * White, when it meets WCAG AA (4.5:1) on `background`; else black or white, whichever contrasts more.
 * Preferring white keeps mid blues (the default #346df1, where black wins by a hair at 4.6 against
 * 4.56) from getting black text, which reads as a disabled button.
 */
export function textColorOn(background: string): "#000000" | "#ffffff" {
  const hex = /^#([0-9a-f]{6})$/i.exec(background)?.[1]
  if (!hex) return "#ffffff"
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  }
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
  // Contrast with white is 1.05/(L+0.05), with black (L+0.05)/0.05.
  const onWhite = 1.05 / (luminance + 0.05)
  if (onWhite >= 4.5) return "#ffffff"
  return (luminance + 0.05) / 0.05 > onWhite ? "#000000" : "#ffffff"
}

const LIGHT = "--bg:#f4f4f5;--card:#ffffff;--text:#18181b;--muted:#52525b;--border:#d4d4d8;--input:#ffffff;--error-bg:#fef2f2;--error-text:#991b1b;--outline:transparent"
const DARK = "--bg:#09090b;--card:#18181b;--text:#fafafa;--muted:#a1a1aa;--border:#3f3f46;--input:#09090b;--error-bg:#450a0a;--error-text:#fecaca;--outline:#71717a"

// A provider's guideline button (brands.ts) carries both of its colour sets; these pick one. On a
// dark page a button without an outline of its own gets --outline (3.9:1 on the card), so a black,
// charcoal or aubergine button keeps a visible edge.
const BRAND_LIGHT = ".brand{background:var(--l-bg);color:var(--l-fg);border-color:var(--l-bd,transparent)}"
const BRAND_DARK = ".brand{background:var(--d-bg);color:var(--d-fg);border-color:var(--d-bd,var(--outline))}"

function colorSchemeCss(scheme: AuthTheme["colorScheme"]): string {
  if (scheme === "light") return `:root{color-scheme:light;${LIGHT}}${BRAND_LIGHT}`
  if (scheme === "dark") return `:root{color-scheme:dark;${DARK}}${BRAND_DARK}`
  return `:root{color-scheme:light dark;${LIGHT}}${BRAND_LIGHT}@media (prefers-color-scheme:dark){:root{${DARK}}${BRAND_DARK}}`
}

const BASE_CSS = `*{box-sizing:border-box}[hidden]{display:none!important}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;max-width:24rem;margin:1rem;padding:2rem;background:var(--card);border:1px solid var(--border);border-radius:.75rem}
h1{font-size:1.25rem;margin:0 0 1.5rem;text-align:center}p{color:var(--muted);text-align:center;margin:0 0 1rem}
form{display:flex;flex-direction:column;gap:.75rem;margin:0}form+form{margin-top:.75rem}
.divider{display:flex;align-items:center;gap:.75rem;margin:1.25rem 0;color:var(--muted);font-size:.875rem}.divider::before,.divider::after{content:"";flex:1;border-top:1px solid var(--border)}
label{font-size:.875rem;font-weight:600}input{width:100%;padding:.625rem .75rem;font:inherit;color:var(--text);background:var(--input);border:1px solid var(--border);border-radius:.5rem}
button{display:flex;align-items:center;justify-content:center;gap:.625rem;width:100%;min-height:2.75rem;padding:.625rem 1rem;font:inherit;font-weight:600;border:1px solid var(--outline);border-radius:.5rem;cursor:pointer}
button svg,button img{width:1.25rem;height:1.25rem;flex:none}button:hover{filter:brightness(1.1)}
:focus-visible{outline:3px solid var(--text);outline-offset:2px}
.alert{padding:.75rem 1rem;margin:0 0 1.25rem;border-radius:.5rem;background:var(--error-bg);color:var(--error-text);text-align:center}
.hint{margin:-.375rem 0 0;font-size:.875rem;text-align:left}[aria-invalid=true]{border-color:var(--error-text)}
.logo{display:block;max-height:3rem;margin:0 auto 1rem}a{color:inherit}`

/**
 * A theme colour as the pages can use it, `#rrggbb` (a `#rgb` one spelled out), or undefined: the
 * pages work out a readable text colour from the brand colour, which takes hex. Only such a
 * colour is ever written into a page's style (settle.ts warns about any other at start-up).
 */
export function pageColor(value: unknown): string | undefined {
  if (typeof value !== "string" || !/^#(?:[0-9a-f]{3}){1,2}$/i.test(value)) return undefined
  const hex = value.toLowerCase()
  return hex.length === 7 ? hex : `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}`
}

/** A full page around `content`; `script` (a URL) is the one deferred script a page with passkeys loads. */
export function page(title: string, content: string, theme: AuthTheme = {}, script?: string): string {
  const brand = pageColor(theme.brandColor) ?? "#346df1"
  // The buttons' text: the app's `buttonText` (as Auth.js's pages use it), else black or white, whichever reads.
  const text = pageColor(theme.buttonText) ?? textColorOn(brand)
  const logo = theme.logo ? `<img class="logo" src="${escapeHtml(theme.logo)}" alt="">` : ""
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${colorSchemeCss(theme.colorScheme)}:root{--brand:${brand};--brand-text:${text}}${BASE_CSS}</style>${script === undefined ? "" : `<script src="${escapeHtml(script)}" defer></script>`}</head><body><main>${logo}${content}</main></body></html>`
}

/** A button in the brand colour (or `color`), with an optional leading logo. */
export function button(label: string, color?: string, logo = ""): string {
  const style = color && /^#[0-9a-f]{6}$/i.test(color) ? ` style="background:${color};color:${textColorOn(color)}"` : ` style="background:var(--brand);color:var(--brand-text)"`
  return `<button type="submit"${style}>${logo}<span>${escapeHtml(label)}</span></button>`
}

/** Hidden form inputs. */
export const hidden = hiddenInputs
