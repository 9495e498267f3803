// Helpers for review6-client.test.ts: the client against the real handler (test/client/support.ts),
// a page's localStorage (Node has none), and a wait for a client's state.
import type { SessionState } from "../../src/client/types.js"
import type { Session } from "../../src/types.js"
import { CredentialsSignin } from "../../src/errors.js"
import Credentials from "../../src/providers/credentials.js"

export { APP, clientApp } from "../client/support.js"

export class Locked extends CredentialsSignin {
  override code = "locked"
}

export const credentials = () =>
  Credentials({
    credentials: { username: {}, password: { type: "password" } },
    authorize: ({ username, password }) => {
      if (username === "locked") throw new Locked()
      return username === "ada" && password === "right" ? { id: "u-ada", name: "Ada", email: "ada@example.com" } : null
    },
  })

export function memoryStorage(): Pick<Storage, "getItem" | "setItem" | "removeItem"> {
  const items = new Map<string, string>()
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, String(value)), removeItem: (key) => void items.delete(key) }
}

export function stateWhere<S extends Session>(client: { subscribe: (listener: (state: SessionState<S>) => void) => () => void }, accept: (state: SessionState<S>) => boolean): Promise<SessionState<S>> {
  return new Promise((resolve) => {
    const stop = client.subscribe((state) => {
      if (!accept(state)) return
      stop()
      resolve(state)
    })
  })
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
