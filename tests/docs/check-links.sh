#!/usr/bin/env bash
# docs-links: every file the repository's Markdown names exists, nothing names a file from outside
# the repository, and docs/performance.md stays a report.
#
#   tests/docs/check-links.sh [REPO_ROOT]
#
# Checks every *.md of the repository (not under .git, node_modules or a build* folder), outside
# fenced code blocks:
#   - relative Markdown links and images, [text](path), ![alt](path) and [ref]: path, resolved
#     from the file's folder (URLs, mailto: and #anchors are not files);
#   - backticked repository paths such as `daemon/live/live.cpp` or `bench/wrk/run.sh:12`, resolved
#     from the root, when their first segment is something the repository has at its root (so
#     `build/…`, `data/…` are not the repository's); `schema/json_codec` may name a module by its
#     stem (schema/json_codec.hpp);
#   - file names ending in .md in plain text or backticks ("see operations.md"), resolved from the
#     file's folder, the root or docs/;
#   - no mention of `API.md` (a file this repository never had) or of the shared folder beside
#     the repository (".." then "/shared": the repository must stand alone);
# and that docs/performance.md has at most 250 lines, carries the lines
#   HTTP vs durable floor: 0.NN
#   replay / scan (median of N runs): 0.NN
# and writes clock times only in its table of runs (the section "## The runs").
# A page may name files to be created (a guide's example): tests/docs/new-files.txt.
#
# Prints file:line for each problem and exits 1 if there is any. bash, find, awk, grep only; no
# build and no network needed.
set -u
shopt -s extglob

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "${1:-$here/../..}" && pwd) || { echo "docs-links: no repository at ${1:-}" >&2; exit 2; }
new_files="$here/new-files.txt"
cd "$root" || exit 2

problems=0
outside=..; outside+=/shared  # spelled in two parts so that this file does not name it itself
problem() { echo "$1"; problems=$((problems + 1)); }

# The repository's Markdown files, in a stable order.
mapfile -t files < <(find . \( -name .git -o -name node_modules -o -name 'build*' \) -prune -o \
  -type f -name '*.md' -print | sed 's#^\./##' | LC_ALL=C sort)

# What the repository has at its root (a backticked path is the repository's only if its first
# segment is one of these).
declare -A top=()
for n in * .[!.]*; do [[ -e $n && $n != build* && $n != .git ]] && top[$n]=1; done

# Paths a page may name before they exist: "PAGE PREFIX  # why".
declare -A allowed=()
if [[ -f $new_files ]]; then
  while read -r page prefix _; do
    [[ -z ${page:-} || $page == \#* || -z ${prefix:-} || $prefix == \#* ]] && continue
    allowed[$page]+="$prefix"$'\n'
  done <"$new_files"
fi

# exists PATH: the path, or (a module named by its stem) a file PATH.* beside it.
exists() {
  local p=$1
  [[ -e $p ]] && return 0
  local d=${p%/*} s=${p##*/}
  [[ $p == */* ]] || d=.
  [[ -d $d ]] && compgen -G "$d/$s.*" >/dev/null
}

# normalize PATH: removes ./ and folder/.. segments (no file system access).
normalize() {
  local IFS=/ part out=()
  for part in $1; do
    case $part in
      '' | .) ;;
      ..) if ((${#out[@]})) && [[ ${out[-1]} != .. ]]; then unset 'out[-1]'; else out+=(..); fi ;;
      *) out+=("$part") ;;
    esac
  done
  local joined="${out[*]}"
  echo "${joined:-.}"
}

# The candidates of every file, one a line: FILE<TAB>LINE<TAB>KIND<TAB>TEXT, KIND one of
# link (a link's target), code (a backticked span), name (a plain-text token ending in .md),
# forbidden (a mention of API.md or of the folder beside the repository). POSIX awk: mawk and gawk
# alike.
extract() {
  awk -v OFS='\t' -v outside="$outside" '
    FNR == 1 { fence = "" }
    {
      line = $0
      stripped = line; sub(/^[ \t]+/, "", stripped)
      if (fence != "") { if (substr(stripped, 1, 3) == fence) fence = ""; next }
      if (substr(stripped, 1, 3) == "```" || substr(stripped, 1, 3) == "~~~") { fence = substr(stripped, 1, 3); next }
      if (line ~ /API\.md/) print FILENAME, FNR, "forbidden", "API.md"
      if (index(line, outside)) print FILENAME, FNR, "forbidden", outside
      # Code spans (single or double backticks) out of the line, kept aside.
      rest = line; text = ""; ncode = 0
      while (match(rest, /``?/)) {
        tick = substr(rest, RSTART, RLENGTH)
        after = substr(rest, RSTART + RLENGTH)
        close_at = index(after, tick)
        if (close_at == 0) break
        text = text substr(rest, 1, RSTART - 1) " "
        code[++ncode] = substr(after, 1, close_at - 1)
        rest = substr(after, close_at + RLENGTH)
      }
      text = text rest
      # Reference definitions: [ref]: target
      if (text ~ /^[ ]*\[[^]]+\]:[ \t]*[^ \t]/) {
        t = text; sub(/^[ ]*\[[^]]+\]:[ \t]*/, "", t); sub(/[ \t].*$/, "", t)
        print FILENAME, FNR, "link", t
        text = ""
      }
      # Inline links and images: every "](" opens a target.
      plain = ""
      while ((i = index(text, "](")) > 0) {
        before = substr(text, 1, i - 1)
        for (lb = length(before); lb > 0 && substr(before, lb, 1) != "["; lb--) ;
        if (lb > 0) before = substr(before, 1, lb - 1)  # the text of a link names its target
        plain = plain before " "
        t = substr(text, i + 2)
        sub(/^[ \t]*</, "", t)
        j = match(t, /[ \t>)]/)
        target = (j ? substr(t, 1, j - 1) : t)
        print FILENAME, FNR, "link", target
        k = index(t, ")")
        text = (k ? substr(t, k + 1) : "")
      }
      plain = plain text
      for (c = 1; c <= ncode; c++) {
        span = code[c]; gsub(/^[ \t]+|[ \t]+$/, "", span)
        print FILENAME, FNR, "code", span
      }
      # Plain-text file names ending in .md (a token not part of a path).
      n = split(plain, tokens, /[^A-Za-z0-9_.\/-]+/)
      for (c = 1; c <= n; c++) {
        tok = tokens[c]; sub(/[.-]+$/, "", tok)
        if (tok ~ /^[A-Za-z0-9_][A-Za-z0-9_.-]*\.md$/) print FILENAME, FNR, "name", tok
      }
    }' "$@"
}

check_md_name() { # FILE LINE NAME SHOWN
  local folder=${1%/*}
  [[ $1 == */* ]] || folder=.
  [[ -e $folder/$3 || -e $3 || -e docs/$3 ]] && return 0
  problem "$1:$2: $4: no such file in the repository"
}

while IFS=$'\t' read -r file line kind text; do
  where="$file:$line"
  case $kind in
    forbidden)
      if [[ $text == API.md ]]; then
        problem "$where: mentions API.md, a file this repository does not have (the API is docs/api.md)"
      else
        problem "$where: mentions $outside, outside the repository"
      fi ;;
    link)
      [[ -z $text || $text == \#* ]] && continue
      [[ $text =~ ^[A-Za-z][A-Za-z0-9+.-]*: ]] && continue  # a URL, mailto:
      path=${text%%#*}; path=${path%%\?*}
      [[ -z $path ]] && continue
      if [[ $path == /* ]]; then resolved=$(normalize "${path#/}")
      else
        folder=${file%/*}; [[ $file == */* ]] || folder=.
        resolved=$(normalize "$folder/$path")
      fi
      if [[ $resolved == ..* ]]; then
        problem "$where: link to $text: $resolved is outside the repository"
      elif [[ ! -e $resolved ]]; then
        problem "$where: link to $text: $resolved does not exist"
      fi ;;
    code)
      # A record of a past run names the tree as it was then: its paths are kept, not checked.
      [[ $file == docs/performance/history/* ]] && continue
      candidate=$text
      [[ $candidate =~ ^(.*):[0-9]+(-[0-9]+)?$ ]] && candidate=${BASH_REMATCH[1]}  # `daemon/live/live.cpp:232`
      [[ $candidate =~ ^[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]*)*/?$ ]] || continue
      if [[ $candidate == */* ]]; then
        [[ -n ${top[${candidate%%/*}]:-} ]] || continue
        exists "${candidate%/}" && continue
        ok=
        while IFS= read -r prefix; do
          [[ -n $prefix && $candidate == "$prefix"* ]] && ok=1
        done <<<"${allowed[$file]:-}"
        [[ -n $ok ]] || problem "$where: \`$text\`: no such file or folder in the repository"
      elif [[ $candidate == *.md ]]; then
        check_md_name "$file" "$line" "$candidate" "\`$candidate\`"
      fi ;;
    name)
      check_md_name "$file" "$line" "$text" "$text" ;;
  esac
done < <(extract "${files[@]}")

# docs/performance.md: a report, not a diary.
performance=docs/performance.md
if [[ ! -f $performance ]]; then
  problem "$performance: missing"
else
  lines=$(wc -l <"$performance")
  ((lines <= 250)) || problem "$performance: $lines lines, at most 250 (a report of the current figures; past runs go to docs/performance/history/)"
  grep -Eq '^HTTP vs durable floor: 0\.[0-9]{2}$' "$performance" ||
    problem "$performance: no line 'HTTP vs durable floor: 0.NN'"
  grep -Eq '^replay / scan \(median of [0-9]+ runs\): 0\.[0-9]{2}$' "$performance" ||
    problem "$performance: no line 'replay / scan (median of N runs): 0.NN'"
  # Clock times (HH:MM) only under "## The runs", and never inside a fenced block's text either.
  while IFS=: read -r n _; do
    problem "$performance:$n: a clock time outside the table of runs"
  done < <(awk '
    /^## / { in_runs = ($0 == "## The runs") }
    !in_runs {
      t = $0; gsub(/\]\([^)]*\)/, "]", t)   # a link target may hold a record file name
      if (t ~ /(^|[^0-9:])([01]?[0-9]|2[0-3]):[0-5][0-9]([^0-9:]|$)/) print FNR ":"
    }' "$performance")
fi

if ((problems)); then
  echo "docs-links: $problems problem(s) in ${#files[@]} Markdown files"
  exit 1
fi
echo "docs-links: ${#files[@]} Markdown files checked, no problem"
