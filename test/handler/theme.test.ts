// The app's `theme` on the built-in pages, as Auth.js's `theme` is used: `brandColor` fills the
// buttons, `buttonText` colours their text (Auth.js sets --button-text-color from it). The pages
// take hex colours (#rgb or #rrggbb) only, since they work out a readable text colour from one;
// any other colour is named in a warning at start-up, never dropped in silence.
import { describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import Credentials from "../../src/providers/credentials.js"
import type { AuthTheme } from "../../src/handler/options.js"
import { SECRET } from "./support.js"

const users = Credentials({ credentials: { username: {} }, authorize: () => null })

function appWith(theme: AuthTheme) {
  const warnings: string[] = []
  const { handler } = createAuth({ providers: [users], secret: SECRET, trustHost: true, env: {}, theme, logger: { warn: (code, detail) => void warnings.push(`${code}: ${(detail as { message?: string } | undefined)?.message ?? ""}`) } })
  const pageOf = async (path: string) => {
    const response = await handler(new Request(`http://localhost:3000/auth/${path}`))
    expect(response.status).toBe(200)
    return response.text()
  }
  return { warnings, pageOf }
}

describe("theme on the built-in pages", () => {
  it("buttonText colours the buttons' text on the sign-in and sign-out pages", async () => {
    const { pageOf, warnings } = appWith({ brandColor: "#0f766e", buttonText: "#fde68a" })
    for (const path of ["signin", "signout"]) {
      const html = await pageOf(path)
      expect(html).toContain("--brand:#0f766e")
      expect(html).toContain("--brand-text:#fde68a")
    }
    expect(warnings).toEqual([])
  })

  it("without buttonText, the text is black or white, whichever reads on the brand colour", async () => {
    expect(await appWith({ brandColor: "#ffcc00" }).pageOf("signin")).toContain("--brand-text:#000000")
    expect(await appWith({ brandColor: "#0f766e" }).pageOf("signin")).toContain("--brand-text:#ffffff")
  })

  it("a three-digit hex colour is the six-digit one", async () => {
    const html = await appWith({ brandColor: "#fc0", buttonText: "#FFF" }).pageOf("signin")
    expect(html).toContain("--brand:#ffcc00")
    expect(html).toContain("--brand-text:#ffffff")
  })

  it("a colour the pages cannot use is warned about by name at start-up, and the default is used", async () => {
    const { pageOf, warnings } = appWith({ brandColor: "rebeccapurple", buttonText: "rgb(0 0 0)" })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^THEME_COLOR: /)
    expect(warnings[0]).toContain('theme.brandColor "rebeccapurple"')
    expect(warnings[0]).toContain('theme.buttonText "rgb(0 0 0)"')
    const html = await pageOf("signin")
    expect(html).toContain("--brand:#346df1")
    expect(html).toContain("--brand-text:#ffffff")
    expect(html).not.toContain("rebeccapurple")
  })

  it("a colour that tries to close the style block is never written into the page", async () => {
    const { pageOf, warnings } = appWith({ buttonText: "#fff}</style><script>alert(1)</script>" })
    expect(warnings).toHaveLength(1)
    expect(await pageOf("signin")).not.toContain("<script>alert")
  })
})
