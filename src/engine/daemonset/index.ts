// The DaemonSet controller's revisions replay (`kubectl why hash daemonset/NAME`).
export {explainDaemonSetHash, type DaemonSetHashInput, type DaemonSetHashReplay, type DaemonSetRevisionRow} from './explain.js'
