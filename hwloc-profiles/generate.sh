#!/usr/bin/env bash
# Regenerates every profile in hwloc-profiles/ from its hwloc synthetic
# description (the public specification facts in <name>.SOURCE.md):
#   lstopo --input "DESC" --of xml           -> <name>.xml
#   hwloc-annotate ... distances FILE         (where a SLIT is cited)
#   schedrig-agent topology --xml <name>.xml  -> <name>.summary.txt (golden)
# Edge profiles get one documented edit of the exported XML (offline PUs, a
# CPU-less NUMA node) that a synthetic description cannot express.
#
# Usage: hwloc-profiles/generate.sh [path/to/schedrig-agent]
# Needs lstopo and hwloc-annotate (Debian package hwloc). Without an agent
# binary the XML files are rebuilt and the summaries are left alone.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
agent="${1:-${SCHEDRIG_AGENT:-}}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

command -v lstopo >/dev/null || { echo "generate.sh: lstopo not found (apt-get install hwloc)" >&2; exit 2; }
command -v hwloc-annotate >/dev/null || { echo "generate.sh: hwloc-annotate not found (apt-get install hwloc)" >&2; exit 2; }

# export NAME DESC: the synthetic description as hwloc XML.
export_xml() {
  lstopo --input "$2" --of xml --force "$here/$1.xml"
}

# annotate NAME ROW...: a NUMALatency matrix (ACPI SLIT, kind 5 = FROM_OS |
# MEANS_LATENCY, as the Linux backend records it); one quoted row per node.
annotate() {
  local name="$1"
  shift
  local n=$#
  {
    echo "name=NUMALatency"
    echo 5
    echo "$n"
    for ((i = 0; i < n; i++)); do echo "NUMANode:$i"; done
    for row in "$@"; do for v in $row; do echo "$v"; done; done
  } >"$tmp/$name.distances"
  hwloc-annotate "$here/$name.xml" "$here/$name.xml" -- Machine:0 -- distances "$tmp/$name.distances"
}

# Rows of a two-level SLIT: NODES nodes, GROUP nodes per package, local 10,
# NEAR inside a package, FAR across packages.
slit_rows() {
  local nodes=$1 group=$2 near=$3 far=$4
  for ((i = 0; i < nodes; i++)); do
    local row=""
    for ((j = 0; j < nodes; j++)); do
      if ((i == j)); then row+="10 "
      elif ((i / group == j / group)); then row+="$near "
      else row+="$far "; fi
    done
    echo "${row% }"
  done
}

annotate_slit() {
  local name=$1
  shift
  local rows=()
  mapfile -t rows < <(slit_rows "$@")
  annotate "$name" "${rows[@]}"
}

# --- lab machines ------------------------------------------------------------

export_xml ampere-altra-2s-q80 \
  "pack:2 numa:1(memory=256GiB) l2:80(size=1MiB) l1d:1(size=64KiB) l1i:1(size=64KiB) core:1 pu:1"

export_xml aws-m6a.24xlarge-epyc7r13 \
  "pack:2 numa:1(memory=192GiB) l3:3(size=32MiB) l2:8(size=512KiB) l1d:1(size=32KiB) l1i:1(size=32KiB) core:1 pu:2(indexes=2*48:1*2)"

export_xml amd-epyc9654-2s-nps1 \
  "pack:2 numa:1(memory=768GiB) l3:12(size=32MiB) l2:8(size=1MiB) l1d:1(size=32KiB) l1i:1(size=32KiB) core:1 pu:2(indexes=2*192:1*2)"
annotate_slit amd-epyc9654-2s-nps1 2 1 0 32

export_xml amd-epyc9654-2s-nps4 \
  "pack:2 numa:4(memory=192GiB) l3:3(size=32MiB) l2:8(size=1MiB) l1d:1(size=32KiB) l1i:1(size=32KiB) core:1 pu:2(indexes=2*192:1*2)"
annotate_slit amd-epyc9654-2s-nps4 8 4 12 32

export_xml intel-xeon8480-2s-snc4 \
  "pack:2 l3:1(size=105MiB) numa:4(memory=128GiB) l2:14(size=2MiB) l1d:1(size=48KiB) l1i:1(size=32KiB) core:1 pu:2(indexes=2*112:1*2)"
annotate_slit intel-xeon8480-2s-snc4 8 4 12 21

export_xml aws-graviton3-64c \
  "pack:1 numa:1(memory=128GiB) l3:1(size=32MiB) l2:64(size=1MiB) l1d:1(size=64KiB) l1i:1(size=64KiB) core:1 pu:1"

export_xml intel-i7-4770-1s \
  "pack:1 numa:1(memory=16GiB) l3:1(size=8MiB) l2:4(size=256KiB) l1d:1(size=32KiB) l1i:1(size=32KiB) core:1 pu:2(indexes=2*4:1*2)"

# --- edge profiles -------------------------------------------------------------

# SMT-4: two Cavium ThunderX2 CN9980 (32 cores x 4 threads each), Linux
# numbering thread t of core c in package p = 128p + c + 32t.
export_xml edge-smt4-thunderx2-2s \
  "pack:2 numa:1(memory=128GiB) l3:1(size=32MiB) l2:32(size=256KiB) l1d:1(size=32KiB) l1i:1(size=32KiB) core:1 pu:4(indexes=4*32:1*4:128*2)"
annotate_slit edge-smt4-thunderx2-2s 2 1 0 20

# Offline PUs: the i7-4770 after `echo off > /sys/devices/system/cpu/smt/control`
# (PUs 4-7, the second SMT threads, go offline). lstopo --restrict keeps PUs
# 0-3; the Machine's complete_cpuset is put back to 0-7, the way hwloc
# records offline PUs (complete_cpuset minus cpuset).
lstopo --input "pack:1 numa:1(memory=16GiB) l3:1(size=8MiB) l2:4(size=256KiB) l1d:1(size=32KiB) l1i:1(size=32KiB) core:1 pu:2(indexes=2*4:1*2)" \
  --restrict 0x0f --of xml --force "$tmp/offline.xml"
sed -e '/<object type="Machine"/s/complete_cpuset="0x0000000f"/complete_cpuset="0x000000ff"/' \
  "$tmp/offline.xml" >"$here/edge-offline-smt-off-i7-4770.xml"

# Memory-only NUMA node: a 16-core Sapphire Rapids-like socket with a CXL
# Type 3 memory expander (128 GiB) that Linux onlines as CPU-less node 1.
# hwloc attaches such a node to the Machine (cpuset = every PU); Linux lists
# no CPUs for it.
lstopo --input "pack:1 numa:1(memory=64GiB) l3:1(size=30MiB) l2:16(size=2MiB) l1d:1(size=48KiB) l1i:1(size=32KiB) core:1 pu:2(indexes=2*16:1*2)" \
  --of xml --force "$tmp/cxl.xml"
sed -e '/<object type="Machine"/s/nodeset="0x00000001"/nodeset="0x00000003"/g' \
  -e '/<object type="Package"/i\    <object type="NUMANode" os_index="1" cpuset="0xffffffff" complete_cpuset="0xffffffff" nodeset="0x00000002" complete_nodeset="0x00000002" gp_index="101" local_memory="137438953472">\n      <page_type size="4096" count="33554432"/>\n    </object>' \
  "$tmp/cxl.xml" >"$here/edge-memory-only-cxl-node.xml"

# --- architectures ----------------------------------------------------------------

# A synthetic description names no architecture; the kernel's domain rules
# depend on it (x86: arch/x86/kernel/smpboot.c; others: arch_topology.c), so
# every profile records the one its machine has, as the Linux backend does.
annotate_arch() {
  hwloc-annotate "$here/$1.xml" "$here/$1.xml" -- Machine:0 -- info Architecture "$2"
}
for name in amd-epyc9654-2s-nps1 amd-epyc9654-2s-nps4 aws-m6a.24xlarge-epyc7r13 \
  intel-xeon8480-2s-snc4 intel-i7-4770-1s edge-offline-smt-off-i7-4770 edge-memory-only-cxl-node; do
  annotate_arch "$name" x86_64
done
for name in ampere-altra-2s-q80 aws-graviton3-64c edge-smt4-thunderx2-2s; do
  annotate_arch "$name" aarch64
done

# --- golden summaries ------------------------------------------------------------

if [[ -n "$agent" ]]; then
  for xml in "$here"/*.xml; do
    "$agent" topology --xml "$xml" >"${xml%.xml}.summary.txt"
  done
else
  echo "generate.sh: no schedrig-agent given; summaries not regenerated" >&2
fi
