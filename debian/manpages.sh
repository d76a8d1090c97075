#!/bin/sh
# Man pages from a program's own --help, with help2man: PROGRAM.1 and PROGRAM-SUBCOMMAND.1 for each
# subcommand its help lists, in OUT/PROGRAM/. swift-argument-parser's help is turned into the GNU
# shape help2man reads ("Usage:", "Options:") on the way.
# Usage: debian/manpages.sh PROGRAM OUT
set -eu
program=$(realpath "$1")
name=$(basename "$program")
out=$2/$name
version=$("$program" --version)
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The help of `PROGRAM SUBCOMMAND...`, GNU-shaped.
help() {
    "$program" "$@" --help 2>&1 | sed -e 's/^USAGE: /Usage: /' -e 's/^OVERVIEW: //' -e 's/^OPTIONS:$/Options:/' \
        -e 's/^ARGUMENTS:$/Arguments:/' -e 's/^SUBCOMMANDS:$/Commands:/'
}
# The first paragraph of the help: the command's one-line summary, for the NAME section.
summary() {
    "$program" "$@" --help 2>&1 | awk '/^OVERVIEW: /{sub(/^OVERVIEW: /, ""); on=1} on && /^$/{exit} on{printf "%s%s", sep, $0; sep=" "}' |
        sed -e 's/\.$//'
}
subcommands=$("$program" --help | awk '/^SUBCOMMANDS:/{on=1; next} on && /^$/{n++} on && /^  [a-z][a-z0-9-]*( |$)/{print $1}' |
    grep -v '^help$' || true)

page() {
    page_name=$1
    shift
    wrapper=$work/$page_name
    {
        echo '#!/bin/sh'
        echo "[ \"\$1\" = --version ] && exec echo '$page_name $version'"
        printf '"%s"' "$program"
        for word in "$@"; do printf ' "%s"' "$word"; done
        echo ' "$@" 2>&1 | sed -e "s/^USAGE: /Usage: /" -e "s/^OVERVIEW: //" -e "s/^OPTIONS:\$/Options:/" -e "s/^ARGUMENTS:\$/Arguments:/" -e "s/^SUBCOMMANDS:\$/Commands:/"'
    } > "$wrapper"
    chmod +x "$wrapper"
    {
        echo '[SEE ALSO]'
        if [ $# -eq 0 ]; then
            for sub in $subcommands; do echo ".BR $name-$sub (1)"; done
        else
            echo ".BR $name (1)"
        fi
        echo ".PP"
        echo "The full documentation is in /usr/share/doc/$name/ (README.md, user-guide.md and the rest)."
    } > "$work/$page_name.include"
    help2man --no-info --section=1 --source="wearbridge $version" --version-string="$version" \
        --name="$(summary "$@")" --include="$work/$page_name.include" --output="$out/$page_name.1" "$wrapper"
}

page "$name"
for sub in $subcommands; do
    page "$name-$sub" "$sub"
done
