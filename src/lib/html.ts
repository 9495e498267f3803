/**
 * HTML text helpers shared by every page and mail latchkey writes: escaping for content and
 * attribute values, and hidden form inputs. Pure functions, so the handler's pages, the email
 * providers' messages and the plug-ins' pages all escape the same way.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!)
}

/** Hidden form inputs, leaving out the fields whose value is undefined. */
export function hiddenInputs(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value!)}">`)
    .join("")
}
