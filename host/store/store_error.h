// The one exception type of schedrig_store, with a reason a caller can act
// on (common/error.h: no decision reads the message).
#pragma once

#include <string>
#include <utility>

#include "common/error.h"

namespace schedrig::store {

// Anything the store cannot do: open, migrate, read or write the file.
// what() is one line that names the database file, and the SQL and SQLite's
// message where SQLite refused a statement.
class StoreError : public Error {
 public:
  // Why, as far as a caller needs to tell (SQLite's result codes:
  // https://sqlite.org/rescode.html).
  enum class Reason {
    kMissing,      // a read-only open of a file that does not exist
    kCannotOpen,   // sqlite3_open_v2 refused the path
    kNotAStore,    // not an SQLite file (SQLITE_NOTADB)
    kNoSchema,     // an SQLite file without a schedrig schema (yet)
    kOldSchema,    // an older schema that a read-only open cannot upgrade
    kNewerSchema,  // written by a newer schedrig
    kBusy,         // another connection holds the lock (SQLITE_BUSY, SQLITE_LOCKED)
    kSql,          // SQLite refused a statement for another reason
    kBadContent,   // a stored body does not decode, an envelope lacks its ids, or a
                   // queued run's run_id is taken
    kNotOwner,     // an envelope for an instance or run that belongs to another agent,
                   // or for a run of its agent that is not running (queued, or ended)
    kUnknownRun,   // a run envelope of an agent for a run the queue does not have at all
                   // (a spool older than the store, a run of another host): refused alone
  };

  StoreError(Reason reason, const std::string& message)
      : Error(kind_for(reason), message), reason_(reason) {}
  // `peer_message`: what the envelope's sender did wrong, for the Error sent
  // back to it (its own ids only: no store path, no other agent's ids).
  StoreError(Reason reason, const std::string& message, std::string peer_message)
      : Error(kind_for(reason), message), reason_(reason), peer_message_(std::move(peer_message)) {}
  Reason reason() const { return reason_; }
  // The text a peer may see; "" when the error is not about what it sent.
  const std::string& peer_message() const { return peer_message_; }

  // True for a store that is not there yet: missing, or still being created
  // by its writer (no schema yet, or a schema still being brought up).
  bool not_ready() const {
    return reason_ == Reason::kMissing || reason_ == Reason::kNoSchema ||
           reason_ == Reason::kOldSchema;
  }

  // The ErrorKind of `reason`: a file that cannot be used as a store, or an
  // envelope the sender may not write, is bad input (kUsage); a store that
  // fails while in use is kFailed.
  static ErrorKind kind_for(Reason reason) {
    switch (reason) {
      case Reason::kBusy:
      case Reason::kSql:
      case Reason::kBadContent:
        return ErrorKind::kFailed;
      case Reason::kMissing:
      case Reason::kCannotOpen:
      case Reason::kNotAStore:
      case Reason::kNoSchema:
      case Reason::kOldSchema:
      case Reason::kNewerSchema:
      case Reason::kNotOwner:
      case Reason::kUnknownRun:
        break;
    }
    return ErrorKind::kUsage;
  }

 private:
  Reason reason_;
  std::string peer_message_;
};

}  // namespace schedrig::store
