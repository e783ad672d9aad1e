// Bundled in place of the wsl-utils package (scripts/build.mjs) for oclif, which asks it on every run whether this is
// WSL (isWsl) and, for a Windows shell only, where PowerShell is. wsl-utils and powershell-utils promisify
// child_process.execFile as they load, which loads child_process, net and dgram on every run; isWsl comes from
// is-wsl, as wsl-utils re-exports it, and the rest of wsl-utils is loaded when PowerShell's path is asked for.
import isWsl from 'is-wsl'

export {isWsl}

export const powerShellPath = async () => (await import('wsl-utils')).powerShellPath()
