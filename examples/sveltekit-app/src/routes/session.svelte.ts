// The session in the browser, from latchkey/client: it starts from the server's session, and
// follows sign-in and sign-out in this tab and in others (BroadcastChannel) and on focus.
import { createAuthClient, type Session } from "latchkey/client"

export function sessionState(initial: Session | null) {
  const client = createAuthClient({ session: initial })
  let state = $state(client.getState())
  $effect(() => client.subscribe((next) => (state = next)))
  return {
    get data() {
      return state.data
    },
    get status() {
      return state.status
    },
    client,
  }
}
