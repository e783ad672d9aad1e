import {UserError} from '../../errors.js'
import type {SourceOptions} from '../open.js'
import type {ClusterSource} from '../source.js'

export class SnapshotSource {
  static async open(..._args: unknown[]): Promise<ClusterSource> {
    throw new UserError('SnapshotSource is being built')
  }
}
export type {SourceOptions}
