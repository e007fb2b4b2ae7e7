// The sched features file (kernel/sched/debug.c, sched_feat_show /
// sched_feat_write): reading lists every feature on one line as NAME (on)
// or NO_NAME (off); writing one token flips one feature.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "agent/knobs/knob.h"
#include "common/procfs/root.h"

namespace schedrig::knobs {

// Feature name -> on, parsed from the file's one line
// ("GENTLE_FAIR_SLEEPERS NO_NI_RANDOM ..."). Throws KnobError naming
// `source` on an empty or malformed line.
std::map<std::string, bool> parse_features(const std::string& line, const std::string& source);

// "sched feature 'NAME' is not in SOURCE (N features); did you mean A, B?"
// for a name not among `names` (the close matches from allowlist.h).
std::string unknown_feature(const std::string& name, const std::vector<std::string>& names,
                            const std::string& source);

class FeaturesFile {
 public:
  // The file under `root` (see features_path()).
  explicit FeaturesFile(const procfs::Root& root);

  const std::string& path() const { return path_; }

  // Every feature and its state. Throws KnobUnavailable (missing, EPERM).
  std::map<std::string, bool> read() const;

  // Every feature name, sorted (read()'s keys).
  std::vector<std::string> names() const;

  // Throws KnobError when `name` is not a feature of this kernel, listing
  // close matches; KnobUnavailable when the file cannot be read.
  void check_known(const std::string& name) const;

  // Writes one token (NAME or NO_NAME) with one write(2), reads back and
  // verifies. Throws KnobError (unknown name) or KnobUnavailable (the write
  // failed, or the read-back shows it did not take).
  void set(const std::string& name, bool on) const;

 private:
  std::string path_;
};

}  // namespace schedrig::knobs
