// Severities drawn for everyone: the Okabe–Ito palette (safe for the common colour-vision deficiencies) and, because
// colour alone is never enough, a word and a shape with each.
import type {Severity} from '../../explanation.js'
import {h, type Html} from './h.js'

export const SEVERITY_LOOK: Record<Severity, {word: string; shape: string; css: string}> = {
  critical: {word: 'CRITICAL', shape: '◆', css: 'sev-critical'},
  warning: {word: 'WARNING', shape: '▲', css: 'sev-warning'},
  info: {word: 'INFO', shape: '●', css: 'sev-info'},
  none: {word: 'OK', shape: '✓', css: 'sev-none'},
}

export function isSeverity(s: unknown): s is Severity {
  return typeof s === 'string' && s in SEVERITY_LOOK
}

export function severityBadge(s: Severity): Html {
  const look = SEVERITY_LOOK[s]
  return h('span', {class: `badge ${look.css}`, 'data-severity': s}, h('span', {'aria-hidden': 'true'}, look.shape), ' ', look.word)
}

export const PALETTE_CSS = `
:root { --fg:#1b1b1b; --bg:#ffffff; --muted:#5a5a5a; --line:#c8c8c8; --panel:#f4f4f4;
  --critical:#D55E00; --warning:#E69F00; --info:#0072B2; --none:#009E73; --estimated:#CC79A7; }
@media (prefers-color-scheme: dark) {
  :root { --fg:#e8e8e8; --bg:#141414; --muted:#a8a8a8; --line:#4a4a4a; --panel:#1f1f1f;
    --critical:#FF7A3D; --warning:#F0B43C; --info:#56B4E9; --none:#3CC59A; --estimated:#E39AC6; }
}
.sev-critical { --sev: var(--critical); } .sev-warning { --sev: var(--warning); }
.sev-info { --sev: var(--info); } .sev-none { --sev: var(--none); }
`
