// locals.auth(), put there by latchkey's handle hook.
import type { LatchkeyLocals } from "latchkey/sveltekit"

declare global {
  namespace App {
    interface Locals extends LatchkeyLocals {}
  }
}

export {}
