import type { Command } from 'commander';
import { pathOf } from './command-tree.ts';

/**
 * A completion script generated from the command tree, so it never lags behind a new command or
 * flag: for each command, the words that may follow it (its commands, then its flags). Both shells
 * walk the words typed so far the same way, skipping flags and their values.
 */
export function completionScript(program: Command, shell: 'bash' | 'zsh'): string {
  const cases = nodes(program)
    .map((cmd) => `    '${pathOf(cmd).join(' ')}') echo '${followers(cmd).join(' ')}' ;;`)
    .join('\n');
  const words = `_dlv_words() {\n  case "$1" in\n${cases}\n  esac\n}`;
  return shell === 'bash' ? bash(words) : zsh(words);
}

function nodes(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(nodes)];
}

function followers(cmd: Command): string[] {
  const flags = cmd.options.map((o) => o.long!).filter(Boolean);
  return [...cmd.commands.map((c) => c.name()), ...flags, '--help'];
}

const bash = (
  words: string,
) => `# dlv completion for bash: source <(dlv completion bash), or save it as /etc/bash_completion.d/dlv
${words}

_dlv() {
  local cur=\${COMP_WORDS[COMP_CWORD]} at='' word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    [[ $word == -* ]] && continue
    case " $(_dlv_words "$at") " in *" $word "*) at=\${at:+$at }$word ;; esac
  done
  COMPREPLY=($(compgen -W "$(_dlv_words "$at")" -- "$cur"))
}
complete -F _dlv dlv
`;

const zsh = (words: string) => `#compdef dlv
# dlv completion for zsh: source <(dlv completion zsh) after compinit, or save it as _dlv in a directory of $fpath
${words}

_dlv() {
  local at='' word i
  local -a candidates
  for ((i = 2; i < CURRENT; i++)); do
    word=\${words[i]}
    [[ $word == -* ]] && continue
    case " $(_dlv_words "$at") " in *" $word "*) at=\${at:+$at }$word ;; esac
  done
  candidates=(\${=$(_dlv_words "$at")})
  compadd -a candidates
}

if [[ $funcstack[1] == _dlv ]]; then
  _dlv "$@"
else
  compdef _dlv dlv
fi
`;
