# Sourced by setup.sh, test.sh and mutate.sh: sets `launcher` to the CMake arguments that compile
# through ccache (a Debian package setup.sh installs), or to nothing where the machine lacks it.
# CCACHE_BASEDIR is the checkout itself, so paths inside it reach ccache relative to the build
# folder: a second clone (CI's fresh one) or a second build folder of the same sources is a cache
# hit, wherever it sits. CCACHE_NOHASHDIR keeps the build folder out of the hash for the same
# reason (the -g1 line tables then name the first clone's folder, which only a debugger sees).
launcher=()
if command -v ccache >/dev/null; then
    launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=/usr/bin/env;CCACHE_BASEDIR=$(pwd);CCACHE_NOHASHDIR=1;ccache")
fi
