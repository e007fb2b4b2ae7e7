// Workload parameters as plans and the CLI give them (strings), checked and
// converted with errors that name the parameter, the value and the range.
#pragma once

#include <map>
#include <stdexcept>
#include <string>

namespace schedrig::workloads {

using Params = std::map<std::string, std::string>;

// A parameter that is missing, malformed or out of range. what() reads
// "fork: parameter 'fork_max' = '0': must be an integer in [1, 16000]".
// param() is the parameter at fault ("fork_max"), "" when the error is about
// no single one (an unknown workload, a limit on two parameters together).
class ParamError : public std::invalid_argument {
 public:
  explicit ParamError(const std::string& message, std::string param = "")
      : std::invalid_argument(message), param_(std::move(param)) {}
  const std::string& param() const { return param_; }

 private:
  std::string param_;
};

// Integer parameter in [lo, hi]; `auto_value` replaces the word "auto" when
// it is >= 0 (e.g. one worker per PU), else "auto" is an error.
long long param_int(const std::string& workload, const Params& p, const std::string& name,
                    long long lo, long long hi, long long auto_value = -1);

// Real parameter in [lo, hi] (decimal, e.g. "0.60"; no inf or nan).
double param_double(const std::string& workload, const Params& p, const std::string& name,
                    double lo, double hi);

// One of `choices` (e.g. pin: set | per-cpu).
std::string param_choice(const std::string& workload, const Params& p, const std::string& name,
                         std::initializer_list<const char*> choices);

// A memory binding: "local", "interleave" or "node:N" with N in [0, 1023].
std::string param_membind(const std::string& workload, const Params& p, const std::string& name);

}  // namespace schedrig::workloads
