#!/usr/bin/env -S node --import tsx --no-warnings
// Development entry point: runs the TypeScript sources in src/ directly.
import {execute} from '@oclif/core'

await execute({development: true, dir: import.meta.url})
