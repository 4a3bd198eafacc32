#!/usr/bin/env bash
# SASS of a CUDA kernel on this machine, which has nvcc but no disassembler:
# Debian's non-free nvidia-cuda-toolkit (CUDA 11.8) carries nvdisasm, which
# reads sm_90 code but not the ELF header flags of CUDA 12.8 and later; the
# cubin's e_flags are rewritten to the old sm_90 encoding first. The package
# is downloaded once (84 MB) into $TRAPEZE_TOOLS (default ~/.cache/trapeze-tools)
# and unpacked there, not installed.
#
#   nvcc ... -arch=sm_90 -cubin file.cu -o /tmp/k.cubin   # the flags of the target's flags.make
#   scripts/disassemble.sh /tmp/k.cubin vector_trapezoid_kernel > k.sass
#
# The second argument keeps the functions whose mangled name holds it.
set -euo pipefail
cubin=${1:?usage: disassemble.sh CUBIN [MANGLED-NAME-PART]}
part=${2:-}
[ -f "$cubin" ] || { echo "disassemble.sh: no such cubin '$cubin'" >&2; exit 2; }
tools=${TRAPEZE_TOOLS:-$HOME/.cache/trapeze-tools}
nvdisasm=$tools/x/usr/bin/nvdisasm
if [ ! -x "$nvdisasm" ]; then
  mkdir -p "$tools/lists/partial" "$tools/cache/archives/partial"
  cat > "$tools/nonfree.sources" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  apt_options=(-o "Dir::Etc::sourcelist=$tools/nonfree.sources" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$tools/lists"
               -o "Dir::Cache=$tools/cache")
  apt-get "${apt_options[@]}" update >&2
  (cd "$tools" && apt-get "${apt_options[@]}" download nvidia-cuda-toolkit >&2)
  dpkg -x "$tools"/nvidia-cuda-toolkit_*.deb "$tools/x"
fi
patched=$(mktemp --suffix=.cubin)
trap 'rm -f "$patched"' EXIT
python3 - "$cubin" "$patched" <<'PY'
import struct, sys
elf = bytearray(open(sys.argv[1], 'rb').read())
if elf[:4] != b'\x7fELF':
    sys.exit(f"disassemble.sh: '{sys.argv[1]}' is not an ELF cubin (nvcc -cubin makes one)")
struct.pack_into('<I', elf, 0x30, 0x005a055a)  # EF_CUDA_SM90 | TEXMODE_UNIFIED | 64BIT_ADDRESS | VIRTUAL_SM(90)
open(sys.argv[2], 'wb').write(elf)
PY
"$nvdisasm" "$patched" | awk -v part="$part" '/^\t\.section\t\.text\./ { keep = part == "" || index($0, part) > 0 } keep' |
  sed -E 's/ +\/\* 0x[0-9a-f]+ \*\///'
