// A time axis drawn to scale: the span of the instants shown, padded, with ticks at a round step chosen so that
// about six fit, labelled in UTC (the clock every Kubernetes timestamp is written in).

const STEPS_MS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800].map((s) => s * 1000)

export interface Axis {
  start: number
  end: number
  /** x of an instant, in [left, left + width]. */
  x(t: number): number
  ticks: {t: number; label: string}[]
}

function label(t: number, step: number, spanDays: boolean): string {
  const iso = new Date(t).toISOString()
  const time = step < 60_000 ? iso.slice(11, 19) : iso.slice(11, 16)
  return spanDays || step >= 86_400_000 ? `${iso.slice(5, 10)} ${time}` : time
}

export function makeAxis(instants: readonly number[], left: number, width: number): Axis {
  let start = Math.min(...instants)
  let end = Math.max(...instants)
  if (!(end > start)) {
    start -= 30_000
    end += 30_000
  }
  const pad = (end - start) * 0.04
  start -= pad
  end += pad
  const span = end - start
  const step = STEPS_MS.find((s) => span / s <= 7) ?? STEPS_MS.at(-1)!
  const ticks: Axis['ticks'] = []
  const spanDays = new Date(start).toISOString().slice(0, 10) !== new Date(end).toISOString().slice(0, 10)
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) ticks.push({t, label: label(t, step, spanDays)})
  return {start, end, ticks, x: (t) => left + ((t - start) / span) * width}
}
