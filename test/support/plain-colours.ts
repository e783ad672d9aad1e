// Renderer tests compare plain text: chalk off for the file's tests, restored after.
import {after, before} from 'node:test'
import chalk from 'chalk'

export function withoutColours(): void {
  let level: typeof chalk.level
  before(() => {
    level = chalk.level
    chalk.level = 0
  })
  after(() => {
    chalk.level = level
  })
}
