// Guessing and flooding through the password routes (issue #28), with the default limits on:
// from one IP, from 50 IPs at one address (the identifier key, the normalised address), and
// through path spellings that might reach the route without being counted as it. What a limit must
// stop is counted where it costs: key derivations at node:crypto (wrapped here and passed through)
// for the routes that verify or hash, mails for the routes that send.
import { beforeAll, describe, expect, it, vi } from "vitest"
import { rateLimits } from "../../src/rate-limits/plug-in.js"
import { account, Browser, errorOf, json, passwordApp, PW, resetLink, STRATEGIES, type PasswordApp } from "./password-support.js"

const kdf = vi.hoisted(() => ({ calls: 0 }))
vi.mock("node:crypto", async (importOriginal) => (await import("./counting-kdf.js")).countingCrypto(await importOriginal(), kdf))

const ATTEMPTS = 40

function limitedApp(strategy: (typeof STRATEGIES)[number]): PasswordApp {
  return passwordApp({ strategy, config: { rateLimits: rateLimits(), trustedProxy: "cloudflare" } })
}

const from = (app: PasswordApp, ip: string, like?: Browser) => {
  const browser = new Browser(app.handler, { "cf-connecting-ip": ip })
  if (like) for (const [name, value] of like.jar) browser.jar.set(name, value)
  return browser
}

interface Route {
  path: string
  fields: (index: number) => Record<string, string>
  /** What an attempt that got through costs: derivations or mails. */
  cost: "derivations" | "mails"
  /** Needs the victim's session (a stolen cookie). */
  session?: boolean
}

/** Attempts at one route; answers what got through (its cost) and the refusals. */
async function flood(app: PasswordApp, route: Route, ips: (index: number) => string, path = (index: number) => route.path, session?: Browser) {
  const before = { derivations: kdf.calls, mails: app.mailbox.length }
  const answers: Response[] = []
  for (let index = 0; index < ATTEMPTS; index++) answers.push(await from(app, ips(index), session).post(path(index), route.fields(index)))
  const spent = route.cost === "derivations" ? kdf.calls - before.derivations : app.mailbox.length - before.mails
  const limited = answers.filter((answer) => answer.status === 429)
  return { spent, limited, answers }
}

for (const strategy of STRATEGIES) {
  describe(`rate limits on the password routes (${strategy} sessions)`, () => {
    let app: PasswordApp
    let victim: Browser
    let token: string
    const ADA = `ada-${strategy}@example.com`
    beforeAll(async () => {
      app = limitedApp(strategy)
      victim = await account(app, ADA, PW.ada)
      token = (await resetLink(app, ADA)).searchParams.get("token")!
    }, 30_000)

    const routes = (): Record<string, Route> => ({
      "sign-in": { path: "/auth/callback/password", fields: (i) => ({ email: ADA, password: `guess number ${i} of many, wrong` }), cost: "derivations" },
      "sign-up": { path: "/auth/password/sign-up", fields: () => ({ email: ADA, password: PW.eve }), cost: "derivations" },
      forgot: { path: "/auth/password/forgot", fields: () => ({ email: ADA }), cost: "mails" },
      reset: { path: "/auth/password/reset", fields: (i) => ({ token: `${token.slice(0, -4)}${String(i).padStart(4, "0")}`, email: ADA, password: PW.eve }), cost: "derivations" },
      change: { path: "/auth/password/change", fields: (i) => ({ currentPassword: `guess number ${i} of many, wrong`, newPassword: PW.eve }), cost: "derivations", session: true },
    })

    for (const name of ["sign-in", "sign-up", "forgot", "reset", "change"]) {
      it(`${name}: one IP is refused with 429, RateLimited and Retry-After before ${ATTEMPTS} attempts`, async () => {
        const route = routes()[name]!
        const { limited } = await flood(app, route, () => `203.0.113.${10 + ["sign-in", "sign-up", "forgot", "reset", "change"].indexOf(name)}`, undefined, route.session ? victim : undefined)
        expect(limited.length).toBeGreaterThan(0)
        expect(Number(limited[0]!.headers.get("retry-after"))).toBeGreaterThan(0)
        expect(await json(limited[0]!)).toMatchObject({ error: "RateLimited", retryAfter: expect.any(Number) })
      })

      it(`${name}: 50 IPs at one address are stopped by the address's own count`, async () => {
        const route = routes()[name]!
        const fresh = limitedApp(strategy)
        const owner = await account(fresh, ADA, PW.ada)
        if (name === "reset") token = (await resetLink(fresh, ADA)).searchParams.get("token")!
        const { limited, spent } = await flood(fresh, route, (index) => `198.51.${name.length}.${index + 1}`, undefined, route.session ? owner : undefined)
        expect(limited.length).toBeGreaterThan(0)
        console.log(`[password rate limits, ${strategy}] ${name} from ${ATTEMPTS} IPs: ${ATTEMPTS - limited.length} answered, ${limited.length} refused, ${spent} ${route.cost} spent`)
      }, 60_000)
    }

    it("path spellings (//, %2F, a trailing slash, an encoded letter) are counted as the route or reach nothing", async () => {
      const spellings = (path: string) => {
        const [, base = "", rest = ""] = /^(\/auth\/[^/]+)\/(.+)$/.exec(path)!
        return [path, `${base}//${rest}`, `${base}%2F${rest}`, `${base}%2f${rest}`, `${path}/`, `${base}/%${rest.charCodeAt(0).toString(16)}${rest.slice(1)}`, `/auth/${base.slice(6)}/./${rest}`, `/auth//${base.slice(6)}/${rest}`]
      }
      for (const name of ["sign-in", "forgot", "change"]) {
        const route = routes()[name]!
        // The canonical path alone, from many IPs, at one address: what the limit lets through.
        const canonical = limitedApp(strategy)
        const canonicalOwner = await account(canonical, ADA, PW.ada)
        const baseline = await flood(canonical, route, (index) => `192.0.2.${index + 1}`, undefined, route.session ? canonicalOwner : undefined)
        // The same attempts rotating through the spellings must not get more through.
        const rotated = limitedApp(strategy)
        const rotatedOwner = await account(rotated, ADA, PW.ada)
        const variants = spellings(route.path)
        const attack = await flood(rotated, route, (index) => `192.0.2.${index + 1}`, (index) => variants[index % variants.length]!, route.session ? rotatedOwner : undefined)
        expect({ name, spent: attack.spent <= baseline.spent }).toEqual({ name, spent: true })
        for (const [index, answer] of attack.answers.entries()) {
          const reached = answer.status === 429 || answer.status === 404 || answer.status < 500
          expect({ path: variants[index % variants.length], reached }).toEqual({ path: variants[index % variants.length], reached: true })
        }
        console.log(`[password rate limits, ${strategy}] ${name}: canonical path ${baseline.spent} ${route.cost} spent; ${variants.length} spellings rotated ${attack.spent}`)
      }
    }, 120_000)

    it("spellings of one address share its count (case, fullwidth, spaces)", async () => {
      const fresh = limitedApp(strategy)
      await account(fresh, ADA, PW.ada)
      const spellings = [ADA, ADA.toUpperCase(), ` ${ADA} `, ADA.replace("ada", "ａｄａ")]
      const route: Route = { path: "/auth/callback/password", fields: (i) => ({ email: spellings[i % spellings.length]!, password: `guess number ${i} of many, wrong` }), cost: "derivations" }
      const baseline = await flood(limitedApp(strategy), { ...route, fields: (i) => ({ email: ADA, password: `guess ${i} of many, wrong` }) }, (index) => `198.18.0.${index + 1}`)
      const respelled = await flood(fresh, route, (index) => `198.18.1.${index + 1}`)
      expect(respelled.spent).toBeLessThanOrEqual(baseline.spent)
      expect(await errorOf(respelled.limited[0]!)).toBe("RateLimited")
    }, 60_000)
  })
}
