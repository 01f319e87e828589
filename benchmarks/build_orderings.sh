#!/bin/sh
# Rebuild the shipped omaha hi/lo and 5-card omaha orderings (and time them), from the
# repository root: sh benchmarks/build_orderings.sh [WORKERS]
# Budgets fit a shared 2-core machine; raise --trials (doubles every trial count) or
# --passes to rebuild with more.  Seed 0 everywhere.
set -e
W=${1:-2}
O=pokereval/orderings
run() { /usr/bin/time -f "%e s wall  %U s user  $*" python -m pokereval table build ordering "$@" --workers "$W" --no-progress; }
run omaha-hilo  --players 10 --passes 10 --trials 4 --seed 0 --out $O/omaha-hilo-10.npz
run omaha-hilo  --players 6  --passes 10 --trials 4 --seed 0 --out $O/omaha-hilo-6.npz
run omaha5-hilo --players 9  --passes 6  --trials 4 --seed 0 --out $O/omaha5-hilo-9.npz
run omaha5-hilo --players 6  --passes 6  --trials 4 --seed 0 --out $O/omaha5-hilo-6.npz
run omaha5      --players 9  --passes 6  --trials 4 --seed 0 --out $O/omaha5-9.npz
run omaha5      --players 6  --passes 6  --trials 4 --seed 0 --out $O/omaha5-6.npz
