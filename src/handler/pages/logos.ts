/**
 * Provider marks for the sign-in page. Each built-in provider's `style.mark` imports its own mark
 * module, so a bundler that splits code ships only the marks of the providers an app configures,
 * and loads them only when the sign-in page is rendered.
 */
import type { ResolvedProvider } from "../../providers/types.js"

/**
 * The provider's mark as an inline `<svg>` element, or undefined when it has none (or it fails to
 * load: the button is drawn without it). For providers with button guidelines this is the
 * multi-colour mark they ask for; otherwise the monochrome simple-icons mark, in `currentColor`.
 */
export async function logoMarkup(provider: ResolvedProvider): Promise<string | undefined> {
  const load = "style" in provider ? provider.style.mark : undefined
  if (typeof load !== "function") return undefined
  try {
    const markup = (await load()).default
    return typeof markup === "string" ? markup : undefined
  } catch {
    return undefined
  }
}
