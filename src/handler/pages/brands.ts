/**
 * Sign-in buttons for the providers that publish button guidelines: their colours on light and
 * dark pages, and the name and font they ask for. The multi-colour mark some of them require is
 * the provider's own (its `style.mark` loads it from src/providers/marks/). Every other provider
 * gets a button in its `brandColor`. A provider configured with its own `style.logo` keeps that
 * look instead.
 *
 * The colours reach the page as custom properties on the button (`--l-*` light, `--d-*` dark);
 * the page's stylesheet picks one set by `prefers-color-scheme` or the theme's `colorScheme`.
 */
import { escapeHtml } from "./layout.js"

/** One colour scheme of a button. */
interface ButtonColors {
  background: string
  text: string
  /** Omitted when the guidelines draw the button without an outline. */
  border?: string
}

/** A provider's published sign-in button. */
export interface BrandButton {
  light: ButtonColors
  dark: ButtonColors
  /** The name the guidelines put on the button, when it is not the provider's own. */
  name?: string
  /** The typeface the guidelines ask for, ahead of the page's own. */
  font?: string
  /** The font weight the guidelines ask for, when not the page's semibold. */
  weight?: number
}

const BLACK = { background: "#000000", text: "#FFFFFF" }
const WHITE = { background: "#FFFFFF", text: "#000000" }

const MICROSOFT: BrandButton = {
  // https://learn.microsoft.com/entra/identity-platform/howto-add-branding-in-apps: the
  // four-square Microsoft logo (not the Entra/Azure names) and "Sign in with Microsoft"; the light
  // button is white with a #8C8C8C outline and #5E5E5E text, the dark one #2F2F2F with white text,
  // in Segoe UI Semibold.
  light: { background: "#FFFFFF", text: "#5E5E5E", border: "#8C8C8C" },
  dark: { background: "#2F2F2F", text: "#FFFFFF" },
  name: "Microsoft",
  font: "'Segoe UI',system-ui,sans-serif",
}

const BUTTONS: Record<string, BrandButton> = {
  // https://developers.google.com/identity/branding-guidelines ("Create a custom Sign in with
  // Google button"): light fill #FFFFFF, stroke #747775, text #1F1F1F; dark fill #131314, stroke
  // #8E918F, text #E3E3E3; Roboto Medium; always the standard-colour "G". Google checks this when
  // it verifies an app.
  google: {
    light: { background: "#FFFFFF", text: "#1F1F1F", border: "#747775" },
    dark: { background: "#131314", text: "#E3E3E3", border: "#8E918F" },
    font: "Roboto,Arial,sans-serif",
    weight: 500,
  },
  // https://developer.apple.com/design/human-interface-guidelines/sign-in-with-apple: a black,
  // white or white-outlined button with the Apple logo and "Sign in with Apple"; black on light
  // backgrounds, white on dark ones (a black button on a dark page is a review rejection).
  apple: { light: BLACK, dark: WHITE },
  "microsoft-entra-id": MICROSOFT,
  "azure-ad": MICROSOFT,
  // https://brand.github.com: the Invertocat in black or white only, never recoloured; the button
  // follows the mark, dark on light pages and white on dark ones.
  github: { light: { background: "#181717", text: "#FFFFFF" }, dark: { background: "#FFFFFF", text: "#181717" } },
  // https://about.x.com/en/who-we-are/brand-toolkit: the X logo in black or white only.
  twitter: { light: BLACK, dark: WHITE },
  // https://about.meta.com/brand/resources/facebook/logo/: Facebook blue #0866FF with the white
  // "f" logo (white text on it is 4.8:1).
  facebook: { light: { background: "#0866FF", text: "#FFFFFF" }, dark: { background: "#0866FF", text: "#FFFFFF" } },
  // https://brand.linkedin.com/downloads: LinkedIn blue #0A66C2 with the "in" bug.
  linkedin: { light: { background: "#0A66C2", text: "#FFFFFF" }, dark: { background: "#0A66C2", text: "#FFFFFF" } },
  // https://api.slack.com/authentication/sign-in-with-slack and https://slack.com/media-kit: a white
  // button with the four-colour logo, or aubergine #4A154B with white text on dark pages. The
  // light outline is darkened from Slack's #DDDDDD to a grey with 3:1 contrast on white.
  slack: {
    light: { background: "#FFFFFF", text: "#1D1C1D", border: "#949494" },
    dark: { background: "#4A154B", text: "#FFFFFF" },
  },
  // https://discord.com/branding: Blurple #5865F2 with the white Clyde (white text on it is 4.6:1).
  discord: { light: { background: "#5865F2", text: "#FFFFFF" }, dark: { background: "#5865F2", text: "#FFFFFF" } },
}

/** The published button of the provider with `id`, if it has one. */
export function brandButtonFor(id: string): BrandButton | undefined {
  return Object.hasOwn(BUTTONS, id) ? BUTTONS[id] : undefined
}

function colors(prefix: "l" | "d", { background, text, border }: ButtonColors): string {
  return `--${prefix}-bg:${background};--${prefix}-fg:${text}${border ? `;--${prefix}-bd:${border}` : ""}`
}

/** A sign-in button drawn to the provider's guidelines; `mark` is an inline `<svg>` element. */
export function brandButton(brand: BrandButton, providerName: string, mark = ""): string {
  const font = `${brand.font ? `;font-family:${brand.font}` : ""}${brand.weight ? `;font-weight:${brand.weight}` : ""}`
  const style = `${colors("l", brand.light)};${colors("d", brand.dark)}${font}`
  return `<button type="submit" class="brand" style="${style}">${mark}<span>Sign in with ${escapeHtml(brand.name ?? providerName)}</span></button>`
}
