// The one list of replays: one line each, in the audit's run and report order. Everything that enumerates replays
// or what they read derives from it (src/replay.ts says what a descriptor holds): the audit's checks, --checks and
// their reads (src/audit/registry.ts), deploy/clusterrole.yaml (npm run gen:audit), the kinds a snapshot captures in
// full, the projections that keep only the fields read (src/cluster/projection.ts), completion's kinds, the schema
// enums and the tests' lists.
//
// How to add a replay (say, the Job controller's, `kubectl why job`):
//   1. its folder, src/engine/job/: the engine (pure), its driver (drive.ts, reads through a ClusterSource) and
//      descriptor.ts — name, command, controllers (as --controllers names them: 'job'), target kinds, every read with
//      the fields its engine and driver read, gets, schema, severities, view keys;
//   2. one line below;
//   3. its command file, src/commands/job.ts, and its renderer (a view key in src/render/views.ts);
//   4. its audit adapter, src/audit/checks/job.ts, one line in src/audit/checks/index.ts;
//   5. its docs (README, man page) and schemas/<file>.json; then `npm run gen:audit` rewrites the RBAC, the report
//      schema's enums and the severity table.
// A field the engine reads that the descriptor does not name fails test/replays/fields.test.ts.
import type {ReplayDescriptor} from '../replay.js'
import {DELETIONS_REPLAY} from './deletions/descriptor.js'
import {HASH_REPLAY} from './deployment/descriptor.js'
import {GC_REPLAY} from './garbagecollector/descriptor.js'
import {NODE_REPLAY} from './nodelifecycle/descriptor.js'
import {REPLICAS_REPLAY} from './replicaset/descriptor.js'
import {EVICTED_REPLAY} from './tainteviction/descriptor.js'

export const REPLAYS = {
  hash: HASH_REPLAY,
  gc: GC_REPLAY,
  deleting: DELETIONS_REPLAY,
  node: NODE_REPLAY,
  evicted: EVICTED_REPLAY,
  replicas: REPLICAS_REPLAY,
} as const satisfies Record<string, ReplayDescriptor>

export type ReplayName = keyof typeof REPLAYS

export const DESCRIPTORS: readonly ReplayDescriptor[] = Object.values(REPLAYS)
