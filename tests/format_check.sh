#!/usr/bin/env bash
# Every C++ source is as scripts/format leaves it (the repository's
# .clang-format): clang-format --dry-run -Werror on each .cpp and
# .hpp git tracks or would track (new files too), or on every one under
# the source tree outside a git checkout.
# Skipped (77) without clang-format.
set -u
root=$1
command -v clang-format >/dev/null || { echo "clang-format not installed"; exit 77; }
cd "$root" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp')
else
    mapfile -t files < <(find include src tests fuzz bench python tools -name '*.[ch]pp')
fi
[ "${#files[@]}" -gt 100 ] || { echo "found only ${#files[@]} sources under $root"; exit 1; }
if ! out=$(clang-format --dry-run -Werror "${files[@]}" 2>&1); then
    grep -E '^[^ ].*(warning|error):' <<<"$out" | cut -d: -f1 | sort | uniq -c
    echo "not formatted: run scripts/format"
    exit 1
fi
echo "${#files[@]} sources formatted"
