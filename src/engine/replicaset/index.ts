// The ReplicaSet controller replay: what commands use.
export {explainReplicaSet, ReplicaSetInputError, type ReplicaSetReplay, type ReplicaSetReplayInput} from './explain.js'
export {claimPods, type Recheck} from './claim.js'
export {replicaSetsOfDeployment} from './deployment.js'
export {informerView, slimPod} from './slim.js'
export {VERDICTS} from './types.js'
export type {CoreEvent, Lease, Pod, ReplicaSet, ReplicaSetSettings, Verdict} from './types.js'
