// The ReplicaSet controller replay: what commands use.
export {explainReplicaSet, ReplicaSetInputError, VERDICTS, type ReplicaSetReplay, type ReplicaSetReplayInput, type Verdict} from './explain.js'
export {claimPods, type Recheck} from './claim.js'
export {commonSelector, labelSelectorAsSelector, selectorQuery} from './selector.js'
export {replicaSetsOfDeployment} from './deployment.js'
export {informerView, slimPod} from './slim.js'
export type {CoreEvent, Lease, Pod, ReplicaSet, ReplicaSetSettings} from './types.js'
