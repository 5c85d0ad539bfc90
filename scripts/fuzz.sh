#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang with ASan + UBSan) in build-fuzz/ and runs each for
# SECONDS of fuzzing time, at the lowest CPU priority, seeded from the corpus.
#
#   scripts/fuzz.sh SECONDS [gltf] [fbx] [fbx_ascii] [collada]   (default: every target, one after the other)
#
# build-fuzz/corpus/TARGET grows across runs; crash, timeout and out-of-memory inputs land in
# build-fuzz/findings/TARGET/; each run appends its figures to build-fuzz/fuzz-summary.txt.
# A crash does not end the campaign: it is kept and fuzzing resumes for the time left. While a
# benchmark (rigscope_bench) runs, fuzzing stops and resumes after it, so timings stay honest;
# paused time does not count.
# clang and libFuzzer are installed when missing: only fuzzing needs them, so no
# scripts/packages-*.txt list names them (setup.sh installs every such list, CI included).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: scripts/fuzz.sh SECONDS [gltf] [fbx] [fbx_ascii] [collada] [png_mask] ...}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(gltf fbx fbx_ascii collada usda usdc usdz obj ply pc2 mdd alembic png_mask)
corpus_root=${RIGSCOPE_CORPUS:-$(pwd)/../shared/corpus}
build=build-fuzz

need=()
command -v clang++ >/dev/null || need+=(clang)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
if [ ${#need[@]} -gt 0 ]; then
    echo "fuzz: installing ${need[*]}" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# RIGSCOPE_FUZZ_NO_BUILD=1 fuzzes the targets already built (while the tree is being edited).
if [ -z "${RIGSCOPE_FUZZ_NO_BUILD:-}" ]; then
    cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
          -DRIGSCOPE_FUZZ=ON -DRIGSCOPE_TESTS=OFF -DRIGSCOPE_BENCH=OFF >/dev/null
    cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"
fi

# Seeds: fuzz/make_seeds.py's small files, the corpus and data/ files up to a size where the
# fuzzer still runs many inputs a second (glTF 64 KB, FBX 200 KB), and every kept regression. A
# .gltf with external buffers gets them embedded as data URIs: one self-contained input.
seed_gltf() {
    /usr/bin/python3 - "$1" "$2" <<'EOF'
import base64, json, os, sys
src, dst = sys.argv[1], sys.argv[2]
try:
    doc = json.load(open(src, encoding="utf-8"))
    for b in doc.get("buffers", []):
        uri = b.get("uri", "")
        if uri and not uri.startswith("data:"):
            data = open(os.path.join(os.path.dirname(src), uri), "rb").read()
            b["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    open(dst, "w").write(json.dumps(doc, separators=(",", ":")))
except Exception:
    open(dst, "wb").write(open(src, "rb").read())  # a bad file is a good seed as it is
EOF
}
seed_name() { echo "$1" | tr '/' '_' | sed 's/^[._]*//'; }
for t in "${targets[@]}"; do
    rm -rf "$build/seeds/$t"
    mkdir -p "$build/seeds/$t" "$build/corpus/$t" "$build/findings/$t" "$build/logs"
done
if [[ " ${targets[*]} " == *" gltf "* ]]; then
    /usr/bin/python3 fuzz/make_seeds.py "$build/seeds/gltf"
    while IFS= read -r f; do
        case "$f" in
            *.gltf) seed_gltf "$f" "$build/seeds/gltf/$(seed_name "$f")" ;;
            *) cp "$f" "$build/seeds/gltf/$(seed_name "$f")" ;;
        esac
    done < <(find "$corpus_root" data -type f \( -name '*.glb' -o -name '*.gltf' \) -size -64k 2>/dev/null
             find tests/regressions tests/compressed -type f \( -name '*.glb' -o -name '*.gltf' \) 2>/dev/null)
    # Embedding can grow a seed past the limit.
    find "$build/seeds/gltf" -type f -size +64k -delete
fi
if [[ " ${targets[*]} " == *" fbx "* ]]; then
    while IFS= read -r f; do
        cp "$f" "$build/seeds/fbx/$(seed_name "$f")"
    done < <(find "$corpus_root" data -type f -iname '*.fbx' -size -200k 2>/dev/null
             find tests/regressions -type f -iname '*.fbx' 2>/dev/null)
fi
if [[ " ${targets[*]} " == *" fbx_ascii "* ]]; then
    # ASCII twins of the binary corpus and crafted files (scripts/fbx/fbx_write_ascii.py), and
    # every kept ASCII regression.
    while IFS= read -r f; do
        /usr/bin/python3 scripts/fbx/fbx_write_ascii.py "$f" "$build/seeds/fbx_ascii/$(seed_name "$f")"
    done < <(find "$corpus_root" data tests/fbx_cases -type f -iname '*.fbx' -size -60k 2>/dev/null)
    find tests/regressions -type f -iname '*.fbx' -exec grep -l '^; FBX' {} + 2>/dev/null |
        while IFS= read -r f; do cp "$f" "$build/seeds/fbx_ascii/$(seed_name "$f")"; done || true
    find "$build/seeds/fbx_ascii" -type f -size +200k -delete
fi
if [[ " ${targets[*]} " == *" collada "* ]]; then
    while IFS= read -r f; do
        cp "$f" "$build/seeds/collada/$(seed_name "$f")"
    done < <(find "$corpus_root" data tests/collada tests/regressions -type f -iname '*.dae' -size -200k 2>/dev/null)
fi

# OBJ and PLY: the DCCs' OBJs of corpus/ufbx_dcc, and the neutrals tests/cli/write_neutral.py
# writes of data/bend_cylinder.glb (OBJ both index kinds, PLY ASCII and both binary orders).
for k in obj ply; do
    [[ " ${targets[*]} " == *" $k "* ]] || continue
    /usr/bin/python3 tests/cli/write_neutral.py data/bend_cylinder.glb "$build/seeds/neutral" >/dev/null
    while IFS= read -r f; do
        cp "$f" "$build/seeds/$k/$(seed_name "$f")"
    done < <(find "$corpus_root" "$build/seeds/neutral" -type f -iname "*.$k" -size -200k 2>/dev/null)
    rm -rf "$build/seeds/neutral"
done
# PC2 and MDD: tests/cli/cache/write_cache.py's caches of bend_cylinder's first five frames.
if [[ " ${targets[*]} " == *" pc2 "* || " ${targets[*]} " == *" mdd "* ]]; then
    caches="$build/seeds/caches"
    mkdir -p "$caches" "$build/seeds/pc2" "$build/seeds/mdd"
    rig=build/rigscope  # setup's build; the fuzz build's own CLI otherwise
    [ -x "$rig" ] || rig="$build/rigscope"
    "$rig" -q deform data/bend_cylinder.glb --frames 1..5 --format csv -o "$caches/deform.csv"
    /usr/bin/python3 tests/cli/cache/write_cache.py "$caches/deform.csv" 24 "$caches" >/dev/null
    cp "$caches/cloth.pc2" "$caches/welded.pc2" "$build/seeds/pc2/"
    cp "$caches/cloth.mdd" "$build/seeds/mdd/"
    rm -rf "$caches"
fi
# PNG masks (regions --by masks/{region}.png): the repository's and the corpus's small PNGs.
if [[ " ${targets[*]} " == *" png_mask "* ]]; then
    while IFS= read -r f; do cp "$f" "$build/seeds/png_mask/$(seed_name "$f")"; done \
        < <(find "$corpus_root" docs tests -type f -iname '*.png' -size -64k 2>/dev/null)
fi
# USD: the corpus's layers and package, and the crafted scenes of scripts/usd/make_scenes.py in
# both encodings when setup's usd-core venv is there (its .usdc files are the only crate seeds).
if [[ " ${targets[*]} " == *" usd"* ]]; then
    scenes="$build/seeds/usd_scenes"
    rm -rf "$scenes"
    if [ -x build/usd-venv/bin/python ]; then
        build/usd-venv/bin/python scripts/usd/make_scenes.py "$scenes" --usdc >/dev/null || true
    fi
    for k in usda usdc usdz; do
        [[ " ${targets[*]} " == *" $k "* ]] || continue
        while IFS= read -r f; do
            cp "$f" "$build/seeds/$k/$(seed_name "$f")"
        done < <(find "$corpus_root" data tests "$scenes" -type f -iname "*.$k" -size -200k 2>/dev/null)
    done
    rm -rf "$scenes"
fi

# Alembic: tests/cli/alembic/alembic_write.py's archives (one per schema feature, and the refused ones)
# when setup's venv has alembic3d, and the archives kept in tests/alembic.
if [[ " ${targets[*]} " == *" alembic "* ]]; then
    if [ -x build/usd-venv/bin/python ]; then
        build/usd-venv/bin/python tests/cli/alembic/alembic_write.py "$build/seeds/alembic" >/dev/null || true
    fi
    find tests/alembic -type f -name '*.abc' -size -200k -exec cp {} "$build/seeds/alembic/" \; 2>/dev/null || true
fi

# A benchmark run: the benchmark executable, or the CLI timed by scripts/bench.sh (its build step
# and other processes are not timed, so fuzzing at nice 19 may go on then).
bench_running() { pgrep -x rigscope_bench >/dev/null || pgrep -f 'build-bench/rigscope( |$)' >/dev/null; }

summary="$build/fuzz-summary.txt"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for t in "${targets[@]}"; do
    log="$build/logs/$t.log"
    active=0 execs=0 segments=0 findings_before=$(ls "$build/findings/$t" | wc -l)
    started=$(date -u +%FT%TZ)
    while [ "$active" -lt "$seconds" ]; do
        while bench_running; do echo "fuzz: benchmark running, waiting" >&2; sleep 30; done
        left=$((seconds - active))
        segments=$((segments + 1))
        echo "=== segment $segments, $left s left, $(date -u +%FT%TZ)" >>"$log"
        set +e
        # Setsid: the pause below interrupts the fuzzer's whole process group, nothing else.
        setsid nice -n 19 "$build/fuzz/fuzz_$t" -dict="fuzz/$t.dict" -max_total_time="$left" -timeout=60 \
            -rss_limit_mb=2048 -print_final_stats=1 -close_fd_mask=1 \
            -artifact_prefix="$build/findings/$t/" "$build/corpus/$t" "$build/seeds/$t" >>"$log" 2>&1 &
        pid=$!
        t0=$(date +%s)
        while kill -0 "$pid" 2>/dev/null; do
            sleep 5
            if bench_running; then
                echo "fuzz: benchmark started, pausing $t" >&2
                kill -INT -- "-$pid" 2>/dev/null
            fi
        done
        wait "$pid"
        rc=$?
        set -e
        took=$(($(date +%s) - t0))
        active=$((active + took))
        n=$(sed -n "/^=== segment $segments,/,\$p" "$log" | grep -o 'stat::number_of_executed_units: [0-9]*' | tail -1 | grep -o '[0-9]*$' || true)
        execs=$((execs + ${n:-0}))
        case $rc in
            0|72) ;;  # time is up, or interrupted for a benchmark
            *) echo "fuzz: $t stopped with exit $rc (a finding, see $log); resuming" >&2
               # A crash right at the start is a seed or a known bug: fix it before fuzzing on.
               [ "$took" -ge 30 ] || { echo "fuzz: $t fails within $took s; stopping this target" >&2; break; } ;;
        esac
    done
    findings=$(( $(ls "$build/findings/$t" | wc -l) - findings_before ))
    line="$started fuzz_$t: ${active} s, $execs executions, $segments segments, corpus $(ls "$build/corpus/$t" | wc -l) inputs, $findings new findings"
    echo "$line" | tee -a "$summary"
done
