#include "common/plan/yaml_load.h"

#include <sstream>

#include <yaml-cpp/eventhandler.h>

#include "common/plan/plan_yaml.h"

namespace schedrig {
namespace {

// Notes where each document starts; ignores everything else.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;

  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// Walks the documents of `text`; throws PlanError at the first document
// that starts where the one before it did (it consumed nothing).
void refuse_stalled_document(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts docs;
  while (parser.HandleNextDocument(docs)) {
    const std::size_t n = docs.starts.size();
    if (n >= 2 && docs.starts[n - 1].pos == docs.starts[n - 2].pos) {
      throw PlanError(source, docs.starts[n - 1].line + 1, "", "",
                      "YAML syntax: ',' outside a flow collection ([...] or {...})");
    }
  }
}

}  // namespace

std::vector<YAML::Node> load_yaml_documents(const std::string& text, const std::string& source) {
  try {
    refuse_stalled_document(text, source);
    return YAML::LoadAll(text);
  } catch (const YAML::ParserException& e) {
    throw PlanError(source, e.mark.line + 1, "", "", "YAML syntax: " + e.msg);
  }
}

}  // namespace schedrig
