// A tiny element builder for the HTML report: every text and attribute value is escaped on the way in, so a name or
// message from the cluster can never become markup. Markup is an `Html` value; plain strings are always text.

const HTML_ESCAPES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c])
}

export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup
  }
}

export type Child = Html | string | number | false | null | undefined | readonly Child[]
export type Attrs = Record<string, string | number | boolean | undefined | null>

/** Markup written by this module's own code (CSS, a doctype); never pass data through it. */
export function trusted(markup: string): Html {
  return new Html(markup)
}

function children(list: readonly Child[]): string {
  let out = ''
  for (const c of list) {
    if (c === false || c === null || c === undefined) continue
    if (c instanceof Html) out += c.markup
    else if (Array.isArray(c)) out += children(c)
    else out += escapeHtml(String(c))
  }
  return out
}

const VOID = new Set(['br', 'hr', 'meta', 'img', 'input', 'link'])

export function h(tag: string, attrs: Attrs | null, ...content: Child[]): Html {
  let open = `<${tag}`
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue
    open += v === true ? ` ${k}` : ` ${k}="${escapeHtml(String(v))}"`
  }
  if (VOID.has(tag)) return new Html(`${open}>`)
  // SVG elements without content close themselves.
  if (content.length === 0 && /^(circle|line|rect|path|polygon|polyline|ellipse)$/.test(tag)) return new Html(`${open}/>`)
  return new Html(`${open}>${children(content)}</${tag}>`)
}

export function fragment(...content: Child[]): Html {
  return new Html(children(content))
}
