#include "host/client/server_target.h"

#include <cstdlib>

#include "common/auth/token.h"
#include "common/error.h"
#include "host/client/server_url.h"

namespace schedrig::client {

std::string flag_or_env(const std::string& flag, const char* env) {
  if (!flag.empty()) return flag;
  const char* value = std::getenv(env);
  return value ? value : "";
}

ServerTarget server_target(const std::string& url_flag, const std::string& token_file_flag,
                           const std::string& ca_flag) {
  ServerTarget target;
  target.url = flag_or_env(url_flag, "SCHEDRIG_SERVER");
  if (target.url.empty()) {
    throw Error(ErrorKind::kUsage, "no server: give --server URL or set SCHEDRIG_SERVER");
  }
  parse_server_url(target.url);  // refuse a bad URL before reading any secret
  const std::string token_file = flag_or_env(token_file_flag, "SCHEDRIG_TOKEN_FILE");
  if (token_file.empty()) {
    throw Error(ErrorKind::kUsage,
                "no token: give --token-file F or set SCHEDRIG_TOKEN_FILE (make one with "
                "`schedrig token new --operator NAME`)");
  }
  target.token = auth::read_token_file(token_file);
  target.ca_file = flag_or_env(ca_flag, "SCHEDRIG_CA");
  return target;
}

}  // namespace schedrig::client
