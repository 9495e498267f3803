// Every request under /auth (latchkey's default basePath) goes to the handler.
import { handlers } from "../../../auth"

export const { GET, POST } = handlers
