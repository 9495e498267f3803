// What the two differential tests (differential.test.ts, differential-oauth.test.ts) share: the
// shape of a difference, documented or matched, and the three blocks that check them, the sweep
// last. Each test brings its own scenarios, scripts and runs.
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import type { View } from "./differential-support.js"

/** One step's answers, @auth/core's and latchkey's, normalised. */
export interface Pair {
  authjs: View
  latchkey: View
}

/** Where a step is: its scenario (by title and value), its script, and its place in it. */
export interface StepRef<S> {
  scenarioTitle: string
  scenario: S
  script: string
  index: number
  label: string
}

/** A difference the migration guide gives as deliberate: quoted, and asserted exactly on both sides. */
export interface Documented<S> {
  id: string
  /** Where the guide says it. */
  section: string
  /** What it says: parts of the guide's text, joined by "[…]" or " / ". */
  quote: string
  check: () => Promise<void>
  /** Takes exactly this difference out of a step's pair, for the sweep. */
  neutralise: (pair: Pair, ref: StepRef<S>) => void
}

/** A difference found once and fixed in latchkey: its test asserts latchkey answers as @auth/core does. */
export interface Matched<S> {
  id: string
  title: string
  test: () => Promise<void>
  neutralise: (pair: Pair, ref: StepRef<S>) => void
}

/** Reading a normalised Set-Cookie line ("set <name>; <attributes>" or "clear …"). */
export const cookieName = (line: string) => /^(?:set|clear) ([^;]+);/.exec(line)![1]!
export const isSet = (line: string) => line.startsWith("set ")
// "app." for the names the `cookies` option gives in differential-oauth.test.ts.
export const isSessionCookie = (line: string) => /(authjs|app)\.session-token(\.\d+)?$/.test(cookieName(line))
export const isCsrfCookie = (line: string) => /(authjs|app)\.csrf-token$/.test(cookieName(line))
export const isCallbackCookie = (line: string) => /(authjs|latchkey|app)\.callback-url$/.test(cookieName(line))
export const setNames = (view: View) => view.cookies.filter(isSet).map(cookieName).sort()
export const bodyOf = (view: View) => (typeof view.body === "object" && view.body !== null && !Array.isArray(view.body) ? (view.body as Record<string, any>) : undefined)

/** A neutraliser for steps the two libraries answer wholly differently: latchkey's answer stands for both. */
export const replaceAt =
  <S>(labels: (ref: StepRef<S>) => boolean) =>
  (pair: Pair, ref: StepRef<S>) => {
    if (labels(ref)) pair.authjs = pair.latchkey
  }

// Neutralisers both tests take out of every step, each for a difference the guide documents.

/** Session cookies: latchkey writes `Max-Age` where Auth.js writes `Expires` ("Session cookie lifetime"). */
export function sessionCookieLifetime(pair: Pair): void {
  for (const view of [pair.authjs, pair.latchkey])
    view.cookies = view.cookies.map((line) => (isSet(line) && isSessionCookie(line) ? line.replace(/; (Max-Age|Expires)/g, "").concat("; <lifetime>") : line))
}

/** The CSRF cookie latchkey re-sets with `Max-Age` where Auth.js sets none. */
export function csrfCookieResealed(pair: Pair): void {
  if (pair.authjs.cookies.some(isCsrfCookie)) return
  pair.latchkey.cookies = pair.latchkey.cookies.filter((line) => !(isSet(line) && isCsrfCookie(line) && line.includes("Max-Age")))
}

/** A cleared cookie: latchkey adds an `Expires` in 1970 where Auth.js writes `Max-Age=0` alone ("A cleared cookie"). */
export function clearedCookieExpires(pair: Pair): void {
  const authjsClears = new Map(pair.authjs.cookies.filter((line) => !isSet(line)).map((line) => [cookieName(line), line]))
  pair.latchkey.cookies = pair.latchkey.cookies.map((line) => {
    const theirs = authjsClears.get(cookieName(line))
    return !isSet(line) && theirs && !theirs.includes("Expires") ? line.replace("; Expires", "") : line
  })
}

/** The migration guide, with its line breaks and indents as single spaces. */
export const spaced = (text: string) => text.replace(/\s+/g, " ").trim()
const GUIDE = spaced(readFileSync(new URL("../../docs/migrating-from-authjs.md", import.meta.url), "utf8"))

/**
 * The documented differences (each quote found in the guide, each difference as it says), the
 * matched ones, and the sweep: every step of every script agrees once exactly the listed
 * differences are taken out, so any new one fails there.
 */
export function describeDifferences<S extends { name: string }>(options: {
  documented: Documented<S>[]
  matched: Matched<S>[]
  scenarios: Record<string, { scenario: S; scripts: string[] }>
  scripts: Record<string, { label: string }[]>
  pairAt: (ref: StepRef<S>) => Promise<Pair>
  /** The fewest steps the sweep should find. */
  minSteps: number
}): void {
  const { documented, matched, scenarios, scripts, pairAt, minSteps } = options
  describe("DOCUMENTED differences (docs/migrating-from-authjs.md): each stays exactly as documented", () => {
    for (const entry of documented) {
      it(`${entry.id}: ${entry.section}`, async () => {
        // Every part of the quote (between "[…]" elisions and " / " joins) is in the guide, as written there.
        for (const part of entry.quote.split(/\[…\]| \/ /).map(spaced).filter((text) => text.length > 0)) expect(GUIDE).toContain(part)
        await entry.check()
      })
    }
  })

  describe("MATCHED: what latchkey answers as @auth/core does, once found to differ", () => {
    for (const entry of matched) it(`${entry.id}: ${entry.title}`, entry.test)
  })

  describe("the sweep: every step agrees once the listed differences are taken out", () => {
    const cases: StepRef<S>[] = []
    for (const [title, { scenario, scripts: names }] of Object.entries(scenarios))
      for (const script of names) scripts[script]!.forEach((step, index) => cases.push({ scenarioTitle: title, scenario, script, index, label: step.label }))

    it.each(cases.map((ref) => [`${ref.scenario.name} › ${ref.script} › #${ref.index} ${ref.label}`, ref] as const))("%s", async (_name, ref) => {
      const pair = structuredClone(await pairAt(ref))
      for (const entry of [...documented, ...matched]) entry.neutralise(pair, ref)
      pair.authjs.cookies.sort()
      pair.latchkey.cookies.sort()
      expect(pair.latchkey).toEqual(pair.authjs)
    })

    it("covers every scenario and script it was meant to (the sweep is not empty)", () => {
      expect(cases.length).toBeGreaterThan(minSteps)
      expect(new Set(cases.map((ref) => ref.scenario.name))).toEqual(new Set(Object.values(scenarios).map(({ scenario }) => scenario.name)))
    })
  })
}
