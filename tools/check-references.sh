#!/bin/sh
# check-references.sh - every reference in the tree leads somewhere: a path
# of this repository named in a comment, a README or a make file exists;
# no comment cites an issue number, a design guide outside the repository
# or a path on a developer's machine. Prints one line per broken reference
# (file:line: what) and exits 1 if there is any. Run by `make test`
# (suite references).
#
# What counts as a repository path: a word that starts with one of the
# top-level folders below. Not checked: words with a wildcard or a make
# variable, include names (<hsa/hsa.h> is hsa/include/hsa/hsa.h), build
# outputs (after build/ or $(BUILD)/), and paths in other projects (a line
# that names Linux, ROCr, LLVM, pocl, gnu-efi or QEMU, whose trees have
# folders of the same names).
set -u
cd "$(dirname "$0")/.."
status=0
top='boot|kernel|drivers|hsa|vapu|host|lib|apps|qemu|tests|mk|tools|bench|cl|support'
files=$(git ls-files | grep -E '\.(c|h|S|s|mk|sh|py|lds|md|cl|hip)$|(^|/)Makefile$|^\.ci/')
# path references: one grep over every file, one awk pass that prints
# "file:line path" for each path word, one existence test per word (no
# process per line: the tree has thousands of such lines).
grep -nE "(^|[^A-Za-z0-9_./<\$-])($top)/[A-Za-z0-9_.-]" $(printf '%s\n' $files | grep -vx tools/check-references.sh) |
  awk -v top="$top" '{
      f = $0; sub(/:.*/, "", f); rest = substr($0, length(f) + 2)
      n = rest; sub(/:.*/, "", n); text = substr(rest, length(n) + 2)
      if (tolower(text) ~ /linux|rocr|rocm|llvm|pocl|gnu-efi|gnuefi|qemu\/(hw|include)|debian|\/usr\/|tinygrad|kfd/) next
      re = "(^|[^A-Za-z0-9_./<$-])(" top ")/[A-Za-z0-9_./*%{}-]*"
      while (match(text, re)) {
        p = substr(text, RSTART, RLENGTH); text = substr(text, RSTART + RLENGTH)
        sub(/^[^a-z]/, "", p)
        if (p ~ /[*%{]/) continue
        sub(/\.$/, "", p); sub(/\/$/, "", p)
        print f ":" n " " p
      }
    }' |
  while read -r where p; do
    [ -e "$p" ] || echo "$where: no such file or folder: $p"
  done > /tmp/check-references.$$
# citations that lead nowhere
git grep -nE '[Ii]ssue [0-9]+|DESIGN\.md|design guide|/work/|/home/[a-z]' -- $files |
  grep -v '^tools/check-references.sh' | grep -vE '^README.md:.*github.com' |
  sed 's/$/   (cites what is not in the repository)/' >> /tmp/check-references.$$
if [ -s /tmp/check-references.$$ ]; then
  cat /tmp/check-references.$$
  status=1
fi
rm -f /tmp/check-references.$$
exit $status
