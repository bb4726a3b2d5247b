#!/usr/bin/env bash
# make-programs.sh: the twelve programs of this directory's runs, in the current directory.
# gS.js is ../2026-11-27-timeout-floor/gen.mjs S; eS.js puts a line tree-sitter-javascript rejects
# (valid JavaScript: a parenthesized destructuring target) before it; fS.js makes the failure need
# that construct (the array length is set through it).
here=$(dirname "$0")
for s in 1 2 3 4 5 6; do
  node "$here/../2026-11-27-timeout-floor/gen.mjs" $s > g$s.js
  (echo 'var a; [ ( ( a ) ) ] = [ 7 ] ;'; cat g$s.js) > e$s.js
  sed 's/var len = 7;/var len; [ ( ( len ) ) ] = [ 7 ];/' g$s.js > f$s.js
done
printf '#!/usr/bin/env bash\nnode "$1" 2>&1 | grep -q "RangeError: Invalid array length"\n' > oracle.sh
chmod +x oracle.sh
