import {UserError} from '../../errors.js'
import type {SourceOptions} from '../open.js'
import type {ClusterSource} from '../source.js'

export class LiveSource {
  static async open(..._args: unknown[]): Promise<ClusterSource> {
    throw new UserError('LiveSource is being built')
  }
}
export type {SourceOptions}
