// Builds the ClusterSource a command reads from. Each implementation is imported only when used:
// the client library alone costs close to a second to import, which --help and snapshot mode must not pay.
import type {ClusterSource, SourceOptions} from './source.js'
import {fitsFirst} from './validate/validate-object.js'
import {ValidatedSource} from './validate/validated-source.js'

export type {SourceOptions} from './source.js'

/** Every source is checked at this one boundary: objects that lack the shape the checks read are left out and reported. */
export async function openSource(options: SourceOptions): Promise<ClusterSource> {
  return ValidatedSource.wrap(await openUnchecked(options))
}

async function openUnchecked(options: SourceOptions): Promise<ClusterSource> {
  if (options.snapshot !== undefined) {
    const {SnapshotSource} = await import('./snapshot/snapshot-source.js')
    // The audit's projections, applied as objects arrive, drop fields: a malformed object is kept whole, so that the
    // boundary sees and names what is wrong with it instead of a projection hiding (or tripping on) it.
    const slimmed = options.slim ? (await import('./snapshot/slim.js')).slimmer(options.slim) : undefined
    const slim = slimmed ? fitsFirst(slimmed) : undefined
    return SnapshotSource.open(options.snapshot, {...options, slim, stopSharing: slimmed?.stopSharing})
  }
  const {LiveSource} = await import('./live/live-source.js')
  return LiveSource.open(options)
}
