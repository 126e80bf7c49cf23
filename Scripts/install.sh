#!/usr/bin/env bash
# Installs todo and todo-server: the fully static release binaries, their
# completions for bash, zsh and fish, and their man pages.
#
#   Scripts/install.sh [--prefix DIR]              build, then install under DIR (default ~/.local)
#   Scripts/install.sh --uninstall [--prefix DIR]  remove what an install put under DIR
#   Scripts/install.sh --from DIR [--prefix DIR]   install binaries already built in DIR
#                                                  (no build; man pages only if already generated)
#
# Files installed, under the prefix:
#   bin/todo, bin/todo-server
#   share/bash-completion/completions/{todo,todo-server}
#   share/zsh/site-functions/{_todo,_todo-server}
#   share/fish/vendor_completions.d/{todo,todo-server}.fish
#   share/man/man1/{todo,todo-server}.1
# Databases are never touched, by install or uninstall.
set -euo pipefail

prefix="$HOME/.local"
from=""
uninstall=false
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        --from) from="${2:?--from needs the folder holding todo and todo-server}"; shift 2 ;;
        --uninstall) uninstall=true; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1': see Scripts/install.sh --help" >&2; exit 64 ;;
    esac
done
[ -n "$prefix" ] || { echo "install.sh: --prefix is empty: give a folder, e.g. --prefix ~/.local" >&2; exit 64; }
# Relative folders are the caller's, not the repository's.
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
case "$from" in /*|"") ;; *) from="$PWD/$from" ;; esac
cd "$(dirname "$0")/.."

programs=(todo todo-server)
# Where each file goes, given a program's name.
bin_file() { echo "$prefix/bin/$1"; }
bash_file() { echo "$prefix/share/bash-completion/completions/$1"; }
zsh_file() { echo "$prefix/share/zsh/site-functions/_$1"; }
fish_file() { echo "$prefix/share/fish/vendor_completions.d/$1.fish"; }
man_file() { echo "$prefix/share/man/man1/$1.1"; }

if $uninstall; then
    for program in "${programs[@]}"; do
        for file in "$(bin_file "$program")" "$(bash_file "$program")" "$(zsh_file "$program")" \
                    "$(fish_file "$program")" "$(man_file "$program")"; do
            if [ -e "$file" ]; then rm -f "$file" && echo "removed $file"; fi
        done
    done
    exit 0
fi

manuals=.build/plugins/GenerateManual/outputs
if [ -z "$from" ]; then
    # The fast binaries: fully static, nothing for the loader to do at start-up
    # (needs the .a files of libsqlite3-dev and zlib1g-dev).
    swift build -c release -Xswiftc -static-executable -Xlinker --no-export-dynamic
    from=.build/release
    # The man pages, by ArgumentParser's plugin, from the debug build (`swift test`
    # makes one; its own release build would replace the static binaries).
    swift package plugin generate-manual --configuration debug
fi
for program in "${programs[@]}"; do
    [ -x "$from/$program" ] || { echo "install.sh: $from/$program is missing: build it first, or leave out --from" >&2; exit 1; }
done

for program in "${programs[@]}"; do
    install -D -m 755 "$from/$program" "$(bin_file "$program")"
    echo "installed $(bin_file "$program")"
    for shell in bash zsh fish; do
        file="$("${shell}_file" "$program")"
        mkdir -p "$(dirname "$file")"
        "$from/$program" --generate-completion-script "$shell" > "$file"
        echo "installed $file"
    done
    if [ -f "$manuals/$program/$program.1" ]; then
        install -D -m 644 "$manuals/$program/$program.1" "$(man_file "$program")"
        echo "installed $(man_file "$program")"
    else
        echo "skipped the man page of $program: none generated (swift package plugin generate-manual)"
    fi
done

case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on your PATH; add it, e.g. export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
