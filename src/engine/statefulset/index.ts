// The StatefulSet controller's revisions replay (`kubectl why hash statefulset/NAME`).
export {
  explainStatefulSetHash,
  semanticGate,
  SEMANTIC_GATE,
  type StatefulSetHashInput,
  type StatefulSetHashReplay,
  type StatefulSetRevisionRow,
} from './explain.js'
