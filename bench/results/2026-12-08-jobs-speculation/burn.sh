#!/usr/bin/env bash
# burn.sh WHITTLE_MAIN OUT_DIR REPS N...: the three shared text cases with quick oracles
# (lithium-product-35, xml-title, mozilla-select-html), each oracle preceded by an awk loop of N
# iterations (about 17 ms of CPU a million here), reduced with -j 1 and -j 2 one after the other,
# the order alternating, REPS times. One line a run in OUT_DIR/burn.tsv: case N jobs tests wall-ms
# median-test-ms bytes initial-check-ms.
set -u
main=$1; out=$2; reps=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
shared=$(cd "$here/../../../../shared/bench/cases" && pwd)
mkdir -p "$out/burn"
order=(1 2)
for n in "$@"; do
  for c in lithium-product-35 xml-title mozilla-select-html; do
    t="$out/burn/$c-$n.sh"
    printf '#!/usr/bin/env bash\nawk "BEGIN{for(i=0;i<%s;i++)s+=i}"\nexec %s "$1"\n' "$n" "$shared/$c/oracle.sh" > "$t"
    chmod +x "$t"
    for r in $(seq "$reps"); do
      for j in "${order[@]}"; do
        node "$main" "$shared/$c"/input.* -o "$out/burn/r.out" -q -j "$j" --stats "$out/burn/s.json" --events "$out/burn/e.jsonl" --test "$t"
        node -e '
          const s = require(process.argv[1]);
          const d = require("fs").readFileSync(process.argv[2], "utf8").trim().split("\n").map(JSON.parse)
            .filter((e) => e.type === "test-end").map((e) => e.ms).sort((a, b) => a - b);
          console.log([process.argv[3], process.argv[4], process.argv[5], s.tests, s.wallMs.toFixed(0), d[d.length >> 1].toFixed(1), s.outputBytes, s.initialCheckMs].join("\t"));
        ' "$out/burn/s.json" "$out/burn/e.jsonl" "$c" "$n" "$j" >> "$out/burn.tsv"
        order=("${order[1]}" "${order[0]}")
      done
    done
  done
done
rm -f "$out/burn/r.out" "$out/burn/s.json" "$out/burn/e.jsonl"
