// Types of the wsl-utils shim (wsl-utils.mjs): what oclif takes from the package.
export declare const isWsl: boolean
export declare const powerShellPath: () => Promise<string>
