#!/usr/bin/env bash
# mk.sh CASE SLEEP -> writes wrapper CASE-$SLEEP.sh with memo
c=$1; s=$2; memo=$WRAPPERS/memo-$c; mkdir -p $memo
cat > $WRAPPERS/$c-$s.sh <<EOS
#!/usr/bin/env bash
sleep $s
h=\$(sha256sum "\$1" | cut -c1-64)
m='$memo'/"\$h"
if [ -f "\$m" ]; then exit "\$(cat "\$m")"; fi
'/work/shared/bench/cases/$c/oracle.sh' "\$1"; rc=\$?
echo "\$rc" > "\$m.\$\$" && mv "\$m.\$\$" "\$m"
exit "\$rc"
EOS
chmod +x $WRAPPERS/$c-$s.sh
