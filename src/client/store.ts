/**
 * The session state and its listeners. A new state object is made only when the session's JSON
 * changes, so a re-read that finds the same session wakes nobody (React renders nothing).
 */
import type { Session } from "../types.js"
import type { SessionState } from "./types.js"

export interface SessionStore<S extends Session> {
  get(): SessionState<S>
  /** Sets the session; answers whether the state changed. */
  set(data: S | null): boolean
  subscribe(listener: (state: SessionState<S>) => void): () => void
  /** How many listeners there are. */
  size(): number
}

const LOADING: SessionState<never> = Object.freeze({ data: null, status: "loading" })

/** The state for a known session. */
export function stateOf<S extends Session>(data: S | null): SessionState<S> {
  return { data, status: data ? "authenticated" : "unauthenticated" }
}

export function createSessionStore<S extends Session>(initial: S | null | undefined): SessionStore<S> {
  let state: SessionState<S> = initial === undefined ? LOADING : stateOf(initial)
  let json = initial === undefined ? undefined : JSON.stringify(initial)
  const listeners = new Set<(state: SessionState<S>) => void>()
  return {
    get: () => state,
    set(data) {
      const next = JSON.stringify(data)
      if (state.status !== "loading" && next === json) return false
      json = next
      state = stateOf(data)
      for (const listener of [...listeners]) listener(state)
      return true
    },
    subscribe(listener) {
      // A wrapper per call, so one function subscribed twice is two subscriptions.
      const entry = (value: SessionState<S>) => listener(value)
      listeners.add(entry)
      return () => listeners.delete(entry)
    },
    size: () => listeners.size,
  }
}
