/**
 * Telling the app's other tabs, and the other clients in this page, that the session changed.
 * Only a signal travels (`{ latchkey: "session", trigger }`), never the session: each receiver
 * reads its own copy from the server. Between tabs it goes over a BroadcastChannel, else (where
 * there is none) through a `localStorage` key whose `storage` event the other tabs receive; within
 * the page, directly. One channel per name serves every client in the page, so a message reaches
 * each client once.
 *
 * A sign-in the client did not make (an OAuth sign-in through a server action, a plain form post)
 * ends on a freshly loaded page, which has nothing to compare with: so the tabs remember, in
 * `localStorage`, a digest of the user they last knew. A page that starts with another user than
 * that (or none) reads the session again, and when the server confirms the change, tells the others.
 */

/** Why the session changed. */
export type SessionTrigger = "signin" | "signout" | "update" | "session"

type Receiver = (trigger: SessionTrigger) => void

interface Hub {
  receivers: Set<Receiver>
  channel: BroadcastChannel | undefined
  /** Removes the `storage` listener of the fallback. */
  stopStorage: (() => void) | undefined
}

const hubs = new Map<string, Hub>()
const TRIGGERS = new Set<string>(["signin", "signout", "update", "session"])

/** The trigger a message carries, or undefined for anything that is not one of ours. */
function triggerOf(message: unknown): SessionTrigger | undefined {
  if (typeof message !== "object" || message === null) return undefined
  const { latchkey, trigger } = message as { latchkey?: unknown; trigger?: unknown }
  return latchkey === "session" && typeof trigger === "string" && TRIGGERS.has(trigger) ? (trigger as SessionTrigger) : undefined
}

function deliver(hub: Hub, trigger: SessionTrigger, except?: Receiver): void {
  for (const receiver of [...hub.receivers]) if (receiver !== except) receiver(trigger)
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined // a sandboxed frame, or storage turned off
  }
}

function hubFor(name: string): Hub {
  let hub = hubs.get(name)
  if (hub) return hub
  hub = { receivers: new Set(), channel: undefined, stopStorage: undefined }
  const current = hub
  if (typeof BroadcastChannel === "function") {
    current.channel = new BroadcastChannel(name)
    // Outside a browser (server rendering, tests), an open channel must not keep the process alive.
    ;(current.channel as { unref?: () => void }).unref?.()
    current.channel.onmessage = (event) => {
      const trigger = triggerOf(event.data)
      if (trigger) deliver(current, trigger)
    }
  } else if (typeof addEventListener === "function") {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== name || event.newValue === null) return
      let message: unknown
      try {
        message = JSON.parse(event.newValue)
      } catch {
        return
      }
      const trigger = triggerOf(message)
      if (trigger) deliver(current, trigger)
    }
    addEventListener("storage", onStorage)
    current.stopStorage = () => removeEventListener("storage", onStorage)
  }
  hubs.set(name, hub)
  return hub
}

/** Tells every other client on `name`, in this page and in the app's other tabs. */
export function announce(name: string, trigger: SessionTrigger, from?: Receiver): void {
  const hub = hubFor(name)
  deliver(hub, trigger, from)
  const message = { latchkey: "session", trigger }
  if (hub.channel) {
    hub.channel.postMessage(message)
    // Nothing here listens: the channel is not kept open (the message is already on its way).
    if (hub.receivers.size === 0) close(name, hub)
    return
  }
  // A fresh value every time: the storage event fires only when the value changes.
  try {
    storage()?.setItem(name, JSON.stringify({ ...message, at: Date.now(), nonce: Math.random() }))
  } catch {
    // Storage full or refused: the other tabs learn on their next read.
  }
}

/** Listens on `name`; answers the function that stops. The channel closes with its last listener. */
export function listen(name: string, receiver: Receiver): () => void {
  const hub = hubFor(name)
  hub.receivers.add(receiver)
  return () => {
    hub.receivers.delete(receiver)
    if (hub.receivers.size === 0) close(name, hub)
  }
}

function close(name: string, hub: Hub): void {
  hub.channel?.close()
  hub.stopStorage?.()
  if (hubs.get(name) === hub) hubs.delete(name)
}

/** A short digest of a text (FNV-1a, 32 bits): enough to see a change, and it keeps the user's details out of storage. */
function digest(text: string): string {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193)
  return (hash >>> 0).toString(16)
}

/** The digest remembered for `name`'s tabs, or undefined (none yet, or no storage). */
function remembered(name: string): string | undefined {
  try {
    return storage()?.getItem(`${name}:user`) ?? undefined
  } catch {
    return undefined
  }
}

/**
 * Whether a page starting with `user` (the session's user as JSON, or `null`) starts with another
 * one than `name`'s tabs last knew. When none is remembered yet (the first page), it is remembered
 * now, and is no news. False where there is no storage.
 */
export function startsWithAnotherUser(name: string, user: string): boolean {
  const known = remembered(name)
  if (known === undefined) {
    rememberUser(name, user)
    return false
  }
  return known !== digest(user)
}

/**
 * Remembers `user` as the one the app's tabs on `name` last knew; answers whether it differs from
 * the one remembered before. False where there is no storage: the tabs then learn on focus.
 */
export function rememberUser(name: string, user: string): boolean {
  const known = digest(user)
  if (remembered(name) === known) return false
  try {
    const store = storage()
    store?.setItem(`${name}:user`, known)
    return store !== undefined
  } catch {
    return false
  }
}
