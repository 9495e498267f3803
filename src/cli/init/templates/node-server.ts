/**
 * The Express and Hono files, as docs/frameworks/express.md and hono.md have them: an `auth` module
 * with `createAuth(config)`, which `init` writes, and the one line that mounts it in the app's
 * server, which `init` prints (it never edits the app's own server file). Plain Node needs `.mjs`
 * for `import` unless package.json says `"type": "module"`.
 */
import { configSource, moduleText } from "../config-source.js"
import type { FrameworkPlan, InitChoices } from "../plan.js"

function extensionFor(choices: InitChoices): string {
  if (choices.layout.typescript) return "ts"
  return choices.layout.esm ? "js" : "mjs"
}

/** The files and next steps for an Express or Hono app. */
export function nodeServerPlan(choices: InitChoices): FrameworkPlan {
  const express = choices.layout.framework === "express"
  const extension = extensionFor(choices)
  const source = configSource(choices)
  const imports = ['import { createAuth } from "latchkey"', ...(express ? ['import { toWebHandler } from "latchkey/node"'] : []), ...source.imports]
  const body = ["export const { handler, auth } = createAuth({", ...source.fields, "})"]
  if (express) body.push("", '// Express middleware for latchkey\'s routes: mount it at its base path, app.use("/auth", authRoutes).', "export const authRoutes = toWebHandler(handler)")
  const auth = moduleText("The app's one latchkey instance.", imports, source.setup, body)
  const from = `./auth.${extension === "ts" ? "js" : extension}`
  const mount = express
    ? [`Mount latchkey in your Express app, before the body parsers: import { authRoutes } from "${from}", then app.use("/auth", authRoutes).`, 'Read the session in a route with `await auth(toWebRequest(req))` (toWebRequest from "latchkey/node").']
    : [`Route latchkey in your Hono app, before anything that reads bodies: import { handler } from "${from}", then app.on(["GET", "POST"], "/auth/*", (c) => handler(c.req.raw)).`, "Read the session in a route with `await auth(c.req.raw)`."]
  return {
    devOrigin: "http://localhost:3000",
    files: [{ path: `auth.${extension}`, contents: auth }],
    nextSteps: [...mount, "Node does not read .env.local by itself: start the server with `node --env-file=.env.local` (Node 20.6 and later), then open http://localhost:3000/auth/signin."],
  }
}
