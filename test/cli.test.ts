import { execFile } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { promisify } from "node:util"
import { parseEnv } from "node:util"
import { describe, expect, it } from "vitest"
import { runCli, type CliIO } from "../src/cli/commands.js"
import { encode } from "../src/jwt/encode.js"

const SECRET = "latchkey-test-secret-0123456789abcdef"

function fakeIO(files: Record<string, string> = {}, env: Record<string, string> = {}) {
  const out: string[] = []
  const err: string[] = []
  const io: CliIO = {
    env,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    readFile: (name) => files[name],
    writeFile: (name, contents) => {
      files[name] = contents
    },
    version: () => "1.2.3-test",
  }
  const run = (...args: string[]) => runCli(args, io, (text) => parseEnv(text) as Record<string, string>)
  return { out, err, files, run }
}

describe("latchkey CLI", () => {
  it("secret prints a fresh 32-byte base64url secret each time", async () => {
    const cli = fakeIO()
    expect(await cli.run("secret")).toBe(0)
    expect(await cli.run("secret")).toBe(0)
    const [first, second] = cli.out
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(first!, "base64url")).toHaveLength(32)
    expect(first).not.toBe(second)
  })

  it("secret --write adds AUTH_SECRET to .env.local, keeping what is there", async () => {
    const cli = fakeIO({ ".env.local": "OTHER=1" })
    expect(await cli.run("secret", "--write")).toBe(0)
    expect(cli.files[".env.local"]).toMatch(/^OTHER=1\nAUTH_SECRET=[A-Za-z0-9_-]{43}\n$/)
    expect(cli.out.join("\n")).not.toMatch(/AUTH_SECRET=/)
  })

  it("secret --write never overwrites an existing AUTH_SECRET", async () => {
    const cli = fakeIO({ ".env.local": "AUTH_SECRET=keep-me\n" })
    expect(await cli.run("secret", "--write")).toBe(1)
    expect(cli.files[".env.local"]).toBe("AUTH_SECRET=keep-me\n")
    expect(cli.err.join("\n")).toMatch(/already sets AUTH_SECRET/)
  })

  it("decode prints the payload, trying both cookie salts", async () => {
    const token = await encode({ token: { sub: "cli" }, secret: SECRET, salt: "authjs.session-token" })
    const cli = fakeIO({}, { AUTH_SECRET: SECRET })
    expect(await cli.run("decode", token)).toBe(0)
    expect(JSON.parse(cli.out[0]!)).toMatchObject({ sub: "cli" })
  })

  it("decode honours --salt and reads the secret from .env.local", async () => {
    const token = await encode({ token: { sub: "salted" }, secret: SECRET, salt: "custom" })
    const cli = fakeIO({ ".env.local": `AUTH_SECRET=${SECRET}\n` })
    expect(await cli.run("decode", token, "--salt", "custom")).toBe(0)
    expect(JSON.parse(cli.out[0]!)).toMatchObject({ sub: "salted" })
  })

  it("decode explains a failure by code, without echoing the token or secret", async () => {
    const token = await encode({ token: { sub: "x" }, secret: "another-secret-value", salt: "authjs.session-token" })
    const cli = fakeIO({}, { AUTH_SECRET: SECRET })
    expect(await cli.run("decode", token)).toBe(1)
    const message = cli.err.join("\n")
    expect(message).toMatch(/ERR_NO_MATCHING_SECRET/)
    expect(message).not.toContain(token)
    expect(message).not.toContain(SECRET)
    const malformed = fakeIO({}, { AUTH_SECRET: SECRET })
    expect(await malformed.run("decode", "not-a-token")).toBe(1)
    expect(malformed.err.join("\n")).toMatch(/ERR_INVALID_TOKEN/)
  })

  it("decode without a secret says how to set one", async () => {
    const cli = fakeIO()
    expect(await cli.run("decode", "abc")).toBe(1)
    expect(cli.err[0]).toMatch(/set AUTH_SECRET/)
  })

  it("rejects unknown commands and options with usage", async () => {
    for (const args of [["nope"], ["secret", "--force"], ["decode"], ["decode", "a", "--salt"], ["decode", "a", "b"]]) {
      const cli = fakeIO()
      expect(await cli.run(...args)).toBe(2)
      expect(cli.err.join("\n")).toMatch(/Usage:/)
    }
  })

  it("the built bin runs under Node", async (context) => {
    if (!existsSync("dist/cli.js")) {
      const reason = "no dist/cli.js (run npm run build, or npm test, which builds first)"
      console.warn(`the built bin is not run: ${reason}`)
      context.skip(reason)
    }
    const { stdout } = await promisify(execFile)(process.execPath, ["dist/cli.js", "secret"])
    expect(stdout.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it("--version and -v print the version", async () => {
    const cli = fakeIO()
    expect(await cli.run("--version")).toBe(0)
    expect(await cli.run("-v")).toBe(0)
    expect(cli.out).toEqual(["1.2.3-test", "1.2.3-test"])
    expect(cli.err).toEqual([])
  })

  it("the built bin's --version is package.json's version", async (context) => {
    if (!existsSync("dist/cli.js")) {
      const reason = "no dist/cli.js (run npm run build, or npm test, which builds first)"
      console.warn(`the built bin's version is not checked: ${reason}`)
      context.skip(reason)
    }
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string }
    expect(version).toMatch(/^\d+\.\d+\.\d+/)
    for (const flag of ["--version", "-v"]) {
      const { stdout } = await promisify(execFile)(process.execPath, ["dist/cli.js", flag])
      expect(stdout).toBe(`${version}\n`)
    }
  })
})
