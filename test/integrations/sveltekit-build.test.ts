// latchkey/sveltekit while `vite build` runs SvelteKit's post-build analysis and prerendering (bug
// M2): SvelteKit imports auth.ts there, in a worker it marks with SVELTEKIT_FORK=true, and a CI or
// Docker build has no AUTH_SECRET or provider credentials. As latchkey/next does during `next
// build`, the checks wait for the first use, which still fails loudly; at run time they throw as
// auth.ts loads.
import { afterEach, describe, expect, it, vi } from "vitest"
import { Latchkey } from "../../src/integrations/sveltekit/index.js"
import GitHub from "../../src/providers/github.js"

const APP = "https://app.example.com"
const withoutSecrets = () => Latchkey({ providers: [GitHub], env: {} })
const withoutClientId = () => Latchkey({ providers: [GitHub], secret: "latchkey-sveltekit-test-secret-0123456789abcdef", env: {} })
const kitEvent = (path: string) => ({ event: { request: new Request(`${APP}${path}`), url: new URL(`${APP}${path}`), locals: {} as { auth?: () => Promise<unknown> } }, resolve: () => new Response("page") })

describe("Latchkey(config) while SvelteKit builds (SVELTEKIT_FORK=true)", () => {
  afterEach(() => void vi.unstubAllEnvs())

  it("loads auth.ts without the secrets, and the first use still fails loudly", async () => {
    vi.stubEnv("SVELTEKIT_FORK", "true")
    const { handle, handler } = withoutSecrets()
    expect(() => withoutClientId()).not.toThrow()
    await expect(handler(new Request(`${APP}/auth/session`))).rejects.toMatchObject({ code: "ERR_MISSING_SECRET" })
    await expect(handle(kitEvent("/auth/session"))).rejects.toMatchObject({ code: "ERR_MISSING_SECRET" })
    const page = kitEvent("/")
    await expect(handle(page)).rejects.toMatchObject({ code: "ERR_MISSING_SECRET" })
  })

  it("at run time the same mistakes throw as auth.ts loads", () => {
    expect(() => withoutSecrets()).toThrow(expect.objectContaining({ code: "ERR_MISSING_SECRET" }))
    expect(() => withoutClientId()).toThrow(expect.objectContaining({ code: "ERR_INVALID_PROVIDER" }))
  })
})
