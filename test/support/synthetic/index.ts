// A deterministic synthetic Kubernetes cluster for tests and benchmarks: see README.md beside this file.
export {generateCluster, SyntheticCluster} from './generate.js'
export {resolveOptions, type NotReadyTaints, type ResolvedOptions, type SyntheticClusterOptions} from './options.js'
export {expectedCounts, planCluster, type ClusterPlan} from './plan.js'
export {STUCK_POD_FINALIZER} from './pods.js'
export {writeSnapshot, type SnapshotOptions, type SnapshotWritten} from './writer.js'
