// The Deployment controller's revisions replay (`kubectl why hash deployment/NAME`), and what the DaemonSet and
// StatefulSet replays share with it.
export {explainDeploymentHash, type DeploymentHashInput, type DeploymentHashReplay, type ReplicaSetRow} from './explain.js'
export {VERDICTS, type HashVerdict} from './common.js'
export {WorkloadInputError} from './claim.js'
export {EqualIgnoreHash} from './equal-ignore-hash.js'
export {FindNewReplicaSet, FindOldReplicaSets, MaxRevision, Revision} from './find.js'
export type {PodMeta, ReplicaSet, Workload} from './types.js'
export type {ControllerRevision, HashSettings} from '../history/types.js'
export {checkUnowned, type UnownedRow} from './unowned.js'
export {checkTemplateLabel, type LabelCheck} from '../history/label-check.js'
