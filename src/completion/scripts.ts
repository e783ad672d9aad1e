// The scripts `kubectl why completion SHELL` prints. Each asks the program itself (`__complete`, cobra's protocol,
// src/completion/complete.ts) and reads the directive on the last line: 4 (NoFileComp) keeps file names out,
// 2 (NoSpace) leaves the cursor after "deployment/", 0 lets the shell complete files (-f, --kubeconfig).

export const SHELLS = ['bash', 'zsh', 'fish'] as const
export type Shell = (typeof SHELLS)[number]

const bash = `# bash completion for kubectl-why; also answers for \`kubectl why\` through kubectl_complete-why (kubectl 1.26+).
_kubectl_why() {
  local cur=\${COMP_WORDS[COMP_CWORD]} out directive IFS=$'\\n'
  out=$(kubectl-why __complete "\${COMP_WORDS[@]:1:$COMP_CWORD}" 2>/dev/null) || return
  directive=\${out##*:}
  out=\${out%:*}
  if [[ -z "$out" && $(( directive & 4 )) -eq 0 ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -W "$out" -- "$cur"))
  if [[ $(( directive & 2 )) -ne 0 ]]; then compopt -o nospace 2>/dev/null; fi
}
complete -F _kubectl_why kubectl-why
`

const zsh = `#compdef kubectl-why
# zsh completion for kubectl-why: the bash function through zsh's bashcompinit.
autoload -U +X bashcompinit && bashcompinit
${bash.split('\n').slice(1).join('\n')}`

const fish = `# fish completion for kubectl-why
function __kubectl_why_complete
  set -l words (commandline -opc)[2..-1] (commandline -ct)
  kubectl-why __complete $words 2>/dev/null | string match -v -r '^:[0-9]+$'
end
complete -c kubectl-why -f -a '(__kubectl_why_complete)'
`

export const SCRIPTS: Record<Shell, string> = {bash, zsh, fish}
