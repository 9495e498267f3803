// The sign-in page's provider buttons follow each provider's published button guidelines
// (src/handler/pages/brands.ts has the sources): the four-colour Google "G" on a white or #131314
// button, Apple black on light pages and white on dark ones, the Microsoft four squares, and so on.
import { describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import Apple from "../../src/providers/apple.js"
import Discord from "../../src/providers/discord.js"
import Facebook from "../../src/providers/facebook.js"
import GitHub from "../../src/providers/github.js"
import GitLab from "../../src/providers/gitlab.js"
import Google from "../../src/providers/google.js"
import LinkedIn from "../../src/providers/linkedin.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import Slack from "../../src/providers/slack.js"
import Twitter from "../../src/providers/twitter.js"
import { SECRET } from "./support.js"

const client = { clientId: "id", clientSecret: "secret" }

function everyProvider() {
  return [
    Google(client),
    Apple(client),
    MicrosoftEntraID({ ...client, issuer: "https://login.microsoftonline.com/common/v2.0" }),
    GitHub(client),
    Twitter(client),
    Facebook(client),
    LinkedIn(client),
    Slack(client),
    Discord(client),
    GitLab(client),
  ]
}

async function signInPage(config: Partial<Parameters<typeof createAuth>[0]> = {}): Promise<string> {
  const { handler } = createAuth({ providers: everyProvider(), secret: SECRET, trustHost: true, env: {}, ...config })
  const response = await handler(new Request("http://localhost:3000/auth/signin"))
  expect(response.status).toBe(200)
  return response.text()
}

/** The `<button>` of the form that posts to /signin/<id>. */
function buttonOf(page: string, id: string): string {
  const match = new RegExp(`<form method="post" action="[^"]*/signin/${id}">.*?(<button[^]*?</button>)</form>`).exec(page)
  expect(match, `a button for ${id}`).not.toBeNull()
  return match![1]!
}

/** The custom properties on a guideline button: { "l-bg": "#FFFFFF", ... }. */
function colors(button: string): Record<string, string> {
  const style = /style="([^"]*)"/.exec(button)?.[1] ?? ""
  return Object.fromEntries([...style.matchAll(/--([ld]-(?:bg|fg|bd)):(#[0-9A-Fa-f]{6})/g)].map(([, name, value]) => [name!, value!.toUpperCase()]))
}

function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

describe("sign-in buttons follow the providers' guidelines", () => {
  it("Google: a white (dark: #131314) button with a grey outline and the four-colour G, not a blue one", async () => {
    const button = buttonOf(await signInPage(), "google")
    expect(colors(button)).toEqual({ "l-bg": "#FFFFFF", "l-fg": "#1F1F1F", "l-bd": "#747775", "d-bg": "#131314", "d-fg": "#E3E3E3", "d-bd": "#8E918F" })
    expect(button).not.toContain("background:#4285F4")
    const mark = /<svg[^]*?<\/svg>/.exec(button)?.[0] ?? ""
    const fills = [...mark.matchAll(/fill="(#[0-9A-F]{6})"/g)].map(([, fill]) => fill)
    expect(fills).toEqual(["#EA4335", "#4285F4", "#FBBC05", "#34A853"])
    expect(mark).not.toContain("currentColor")
    expect(button).toContain("<span>Sign in with Google</span>")
    expect(button).toContain("font-family:Roboto")
  })

  it("Apple: black on light pages, white on dark ones, with the Apple logo and \"Sign in with Apple\"", async () => {
    const button = buttonOf(await signInPage(), "apple")
    expect(colors(button)).toEqual({ "l-bg": "#000000", "l-fg": "#FFFFFF", "d-bg": "#FFFFFF", "d-fg": "#000000" })
    expect(button).toMatch(/<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M/)
    expect(button).toContain("<span>Sign in with Apple</span>")
  })

  it("Microsoft: the four squares, \"Sign in with Microsoft\", white with #5E5E5E text or #2F2F2F", async () => {
    const button = buttonOf(await signInPage(), "microsoft-entra-id")
    expect(colors(button)).toEqual({ "l-bg": "#FFFFFF", "l-fg": "#5E5E5E", "l-bd": "#8C8C8C", "d-bg": "#2F2F2F", "d-fg": "#FFFFFF" })
    const squares = [...button.matchAll(/<rect [^>]*fill="(#[0-9A-F]{6})"/g)].map(([, fill]) => fill)
    expect(squares).toEqual(["#F25022", "#7FBA00", "#00A4EF", "#FFB900"])
    expect(button).toContain("<span>Sign in with Microsoft</span>")
  })

  it("GitHub, X, Facebook, LinkedIn, Slack and Discord use their published colours and marks", async () => {
    const page = await signInPage()
    expect(colors(buttonOf(page, "github"))).toEqual({ "l-bg": "#181717", "l-fg": "#FFFFFF", "d-bg": "#FFFFFF", "d-fg": "#181717" })
    expect(colors(buttonOf(page, "twitter"))).toEqual({ "l-bg": "#000000", "l-fg": "#FFFFFF", "d-bg": "#FFFFFF", "d-fg": "#000000" })
    expect(colors(buttonOf(page, "facebook"))).toMatchObject({ "l-bg": "#0866FF", "d-bg": "#0866FF" })
    expect(colors(buttonOf(page, "discord"))).toMatchObject({ "l-bg": "#5865F2", "d-bg": "#5865F2" })
    const linkedin = buttonOf(page, "linkedin")
    expect(colors(linkedin)).toMatchObject({ "l-bg": "#0A66C2", "d-bg": "#0A66C2" })
    expect(linkedin).toContain('<rect width="24" height="24" rx="3" fill="#FFFFFF"/>')
    const slack = buttonOf(page, "slack")
    expect(colors(slack)).toMatchObject({ "l-bg": "#FFFFFF", "d-bg": "#4A154B" })
    const slackFills = [...slack.matchAll(/fill="(#[0-9A-F]{6})"/g)].map(([, fill]) => fill)
    expect(slackFills).toEqual(["#36C5F0", "#2EB67D", "#ECB22E", "#E01E5A"])
  })

  it("every guideline button's text meets WCAG AA (4.5:1) in light and dark", async () => {
    const page = await signInPage()
    const buttons = [...page.matchAll(/<button type="submit" class="brand"[^>]*>/g)].map(([button]) => colors(button))
    expect(buttons.length).toBeGreaterThan(0)
    for (const button of buttons) {
      expect(contrast(button["l-bg"]!, button["l-fg"]!), JSON.stringify(button)).toBeGreaterThanOrEqual(4.5)
      expect(contrast(button["d-bg"]!, button["d-fg"]!), JSON.stringify(button)).toBeGreaterThanOrEqual(4.5)
    }
  })

  it("dark mode comes from prefers-color-scheme, or the theme's colorScheme alone", async () => {
    expect(await signInPage()).toMatch(/\.brand\{background:var\(--l-bg\)[^}]*\}@media \(prefers-color-scheme:dark\)\{:root\{[^}]*\}\.brand\{background:var\(--d-bg\)/)
    const dark = await signInPage({ theme: { colorScheme: "dark" } })
    expect(dark).toContain(".brand{background:var(--d-bg)")
    expect(dark).not.toContain("var(--l-bg)")
    const light = await signInPage({ theme: { colorScheme: "light" } })
    expect(light).toContain(".brand{background:var(--l-bg)")
    expect(light).not.toContain("var(--d-bg)")
  })

  it("keeps the page's guarantees: no scripts, no outside requests, styles inline", async () => {
    const page = await signInPage()
    expect(page).not.toMatch(/<script|<link|\ssrc="https?:|url\(/i)
    expect(page).not.toMatch(/https?:\/\/(?!localhost)/)
  })

  it("a provider without guidelines keeps its brandColor, and one given its own logo keeps that look", async () => {
    const page = await signInPage()
    expect(buttonOf(page, "gitlab")).toMatch(/^<button type="submit" style="background:#FC6D26;color:#000000"><svg viewBox="0 0 24 24"/)
    const own = createAuth({ providers: [Google({ ...client, style: { brandColor: "#123456", logo: "data:image/svg+xml,%3Csvg%3E%3C/svg%3E" } })], secret: SECRET, trustHost: true, env: {} })
    const custom = buttonOf(await (await own.handler(new Request("http://localhost:3000/auth/signin"))).text(), "google")
    expect(custom).toMatch(/^<button type="submit" style="background:#123456;color:#ffffff"><img src="data:image\/svg\+xml,/)
  })
})
