// load_topology: points hwloc at the source, loads it, and turns hwloc's
// failures into one-line TopologyErrors that name the source.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>

#include <fmt/format.h>
#include <hwloc.h>

#include "agent/topology/hwloc_handle.h"
#include "agent/topology/topology.h"
#include "agent/topology/topology_extract.h"
#include "common/parse_whole.h"
#include "common/printable.h"

namespace schedrig::topology {
namespace {

std::string errno_text(int err) { return err == 0 ? "hwloc gave no reason" : std::strerror(err); }

// The largest XML export read: a 16384-PU machine's is tens of MiB.
constexpr std::size_t kMaxXmlBytes = 256u << 20;

// The whole of `path`, read once: it must be a regular file (a FIFO or a
// device would block or never end) of at most kMaxXmlBytes. Throws
// TopologyError "PATH: cannot read it: REASON".
std::string read_xml_file(const std::string& path) {
  const auto fail = [&](const std::string& reason) {
    return TopologyError(fmt::format("{}: cannot read it: {}", printable(path), reason));
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw fail(std::strerror(errno));
  std::string text;
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (regular && static_cast<std::uint64_t>(st.st_size) <= kMaxXmlBytes) {
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < text.size()) {
      const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    text.resize(got);
  }
  ::close(fd);
  if (!regular) throw fail("not a regular file (an hwloc XML export is one)");
  if (static_cast<std::uint64_t>(st.st_size) > kMaxXmlBytes) {
    throw fail(fmt::format("{} bytes is more than the {} MiB an export may have", st.st_size,
                           kMaxXmlBytes >> 20));
  }
  return text;
}

// What hwloc's errno alone does not say about a refused XML export `text`:
// that it is no hwloc XML at all, or a version this hwloc cannot import
// (hwloc 2.x reads versions 1 and 2; hwloc 3 writes version="3.0"). Empty
// when nothing helps.
std::string xml_hint(std::string_view text) {
  const std::string_view head = text.substr(0, 8192);
  const auto tag = head.find("<topology");
  if (tag == std::string::npos) return " (no <topology> element: not an hwloc XML topology)";
  const auto tag_end = head.find('>', tag);
  const std::string_view key = "version=\"";
  const auto attr = head.find(key, tag);
  if (attr == std::string::npos || attr > tag_end) return "";  // v1: no version attribute
  const auto value_begin = attr + key.size();
  const auto value_end = head.find('"', value_begin);
  if (value_end == std::string::npos) return "";
  const std::string_view version = head.substr(value_begin, value_end - value_begin);
  // "2.0" -> 2: the digits before the first dot (0 when there are none).
  const unsigned major =
      try_parse_whole<unsigned>(version.substr(0, version.find('.'))).value_or(0);
  const unsigned supported = hwloc_get_api_version() >> 16;
  if (major <= supported) return "";
  return fmt::format(" (XML version {}; this hwloc {}.x reads XML up to version {})",
                     printable(version.substr(0, 32)), supported, supported);
}

// Names the source at the start of every error message.
std::string source_name(const Source& source) {
  switch (source.kind) {
    case Source::Kind::kXml:
      return printable(source.arg);
    case Source::Kind::kSynthetic:
      return fmt::format("synthetic '{}'", printable(source.arg));
    case Source::Kind::kLive:
      break;
  }
  return "live machine";
}

}  // namespace

Topology load_topology(const Source& source, const procfs::Root& root) {
  HwlocTopology topo;
  // Keep PUs and NUMA nodes outside this process's cgroup, so online and
  // allowed can be told apart (hwloc.h, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED;
  // the same flag reimports the disallowed part of an exported XML).
  // IS_THISSYSTEM stays off: an XML or synthetic machine is not this one.
  if (hwloc_topology_set_flags(topo.get(), HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) != 0) {
    throw TopologyError(
        fmt::format("{}: hwloc refuses its flags: {}", source_name(source), errno_text(errno)));
  }
  // Instruction caches are filtered out by default; an L1i shared by two
  // cores is what marks an AMD compute unit (x86_kernel_cores).
  hwloc_topology_set_icache_types_filter(topo.get(), HWLOC_TYPE_FILTER_KEEP_ALL);

  std::string xml;  // the export's text, alive until hwloc has loaded it
  switch (source.kind) {
    case Source::Kind::kXml:
      xml = read_xml_file(source.arg);
      errno = 0;
      // The size counts the terminating NUL (hwloc.h, hwloc_topology_set_xmlbuffer).
      if (hwloc_topology_set_xmlbuffer(topo.get(), xml.c_str(), static_cast<int>(xml.size() + 1)) !=
          0) {
        const int err = errno;
        throw TopologyError(fmt::format("{}: hwloc cannot load it: {}{}", source_name(source),
                                        errno_text(err), xml_hint(xml)));
      }
      break;
    case Source::Kind::kSynthetic:
      errno = 0;
      if (hwloc_topology_set_synthetic(topo.get(), source.arg.c_str()) != 0) {
        const int err = errno;
        throw TopologyError(fmt::format(
            "synthetic '{}': hwloc rejects the description: {} (want space-separated TYPE:COUNT "
            "levels such as 'pack:2 numa:1 l3:2 core:4 pu:2'; hwloc doc \"Synthetic topologies\")",
            printable(source.arg), errno_text(err)));
      }
      break;
    case Source::Kind::kLive:
      break;
  }

  errno = 0;
  if (hwloc_topology_load(topo.get()) != 0) {
    const int err = errno;
    const std::string hint = source.kind == Source::Kind::kXml ? xml_hint(xml) : "";
    throw TopologyError(
        fmt::format("{}: hwloc cannot load it: {}{}", source_name(source), errno_text(err), hint));
  }

  // Live discovery can still be redirected by HWLOC_XMLFILE or HWLOC_SYNTHETIC
  // in the environment; only a topology of this very system may be checked
  // against this process's affinity and libnuma.
  const bool this_system =
      source.kind == Source::Kind::kLive && hwloc_topology_is_thissystem(topo.get()) != 0;
  try {
    return extract_topology(topo.get(), this_system, root);
  } catch (const std::system_error& e) {
    throw TopologyError(fmt::format("{}: {}", source_name(source), e.what()));
  } catch (const TopologyError& e) {
    throw TopologyError(fmt::format("{}: {}", source_name(source), e.what()));
  }
}

}  // namespace schedrig::topology
