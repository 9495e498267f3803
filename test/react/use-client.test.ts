// The built latchkey/react is a client module: esbuild drops a module's "use client" when it
// bundles, so the build writes it back (tsup.config.ts, USE_CLIENT_ENTRIES). A React Server
// Components bundler reads the directive only as the file's first statement.
import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const built = "dist/react.js"
const unavailable = existsSync(built) ? undefined : "no build in dist/ (run npm run build, or npm test, which builds first)"

describe("the built latchkey/react", () => {
  it("starts with the \"use client\" directive; latchkey/client does not need one", (context) => {
    if (unavailable) {
      if (process.env.CI === "true") throw new Error(unavailable)
      console.warn(`skipped: ${unavailable}`)
      context.skip(unavailable)
    }
    expect(readFileSync(built, "utf8")).toMatch(/^"use client";\n/)
    // The entry re-exports the client; the directive marks the boundary, the shared chunk stays plain.
    expect(readFileSync("dist/client.js", "utf8").startsWith('"use client"')).toBe(false)
  })
})
