// History limits: the Deployment controller's cleanupDeployment and the CronJob controller's cleanupFinishedJobs
// (issue 26 item 3; cleanups.md §3, §5). Pure: no I/O, no clock.
export * from './deployment.js'
export * from './cronjob.js'
export * from './controllerrevisions.js'
