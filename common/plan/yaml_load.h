// Loading a plan file's YAML documents with yaml-cpp, guarded against its
// known hang (internal to common/plan; docs/architecture.md "Plan files
// (YAML)").
#pragma once

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace schedrig {

// Every YAML document of `text`, as YAML::LoadAll gives them. yaml-cpp 0.7's
// LoadAll never returns on a stream where a document would start with a
// ',' (a flow entry outside any flow, e.g. the one-byte file ","): each
// document it reads there consumes nothing and is empty, so it collects
// them until memory runs out (found by fuzz_plan_yaml; the input is
// fuzz/corpus/fuzz_plan_yaml/crash-leading-comma). So the documents are
// first walked with yaml-cpp's event parser, which stops at the first one
// that does not move on. Throws PlanError naming `source` and the 1-based
// line: "YAML syntax: ..." for what yaml-cpp refuses and for such a ','.
std::vector<YAML::Node> load_yaml_documents(const std::string& text, const std::string& source);

}  // namespace schedrig
