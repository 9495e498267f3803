// GitHub's RFC 9207 `iss` is compared when present but not required: GitHub rolled it out, back and
// out again in 2026, and a rollback must not break every GitHub sign-in. A wrong `iss` (mix-up) is
// still refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import GitHub from "../../src/providers/github.js"
import { startGitHubLike, type GitHubLike, type GitHubLikeOptions } from "../servers/github-like.js"
import { rejection, signIn } from "./support.js"

const USER = { id: 1, login: "octocat", name: "The Octocat", email: "octocat@github.com", avatar_url: "https://avatars.githubusercontent.com/u/1", emails: [] }
const CLIENT = { clientId: "gh-client", clientSecret: "gh-secret" }
let withoutIss: GitHubLike
let wrongIss: GitHubLike

function start(options: Partial<GitHubLikeOptions>): Promise<GitHubLike> {
  return startGitHubLike({ ...CLIENT, user: USER, ...options })
}

beforeAll(async () => {
  withoutIss = await start({ omitIss: true })
  wrongIss = await start({ iss: "https://evil.example/login/oauth" })
})

afterAll(async () => {
  await Promise.all([withoutIss.close(), wrongIss.close()])
})

describe("GitHub's iss after a rollback", () => {
  it("signs in when GitHub sends no iss", async () => {
    const provider = GitHub({ ...CLIENT, enterprise: { baseUrl: withoutIss.baseUrl } })
    const { callback, result } = await signIn(provider, "github")
    expect(new URL(callback.url).searchParams.has("iss")).toBe(false)
    expect(result.user).toEqual({ id: "1", name: "The Octocat", email: "octocat@github.com", image: USER.avatar_url })
  })

  it("refuses a callback whose iss names another authorization server", async () => {
    const provider = GitHub({ ...CLIENT, enterprise: { baseUrl: wrongIss.baseUrl } })
    expect(await rejection(signIn(provider, "github"))).toMatchObject({ code: "ERR_OAUTH_PROTOCOL" })
  })
})
