#include "host/collector/store_writer.h"

#include <spdlog/spdlog.h>

namespace schedrig::collector {

StoreWriter::StoreWriter(store::Store& store, StoreWriterOptions options)
    : store_(store), options_(options), thread_([this] { loop(); }) {}

StoreWriter::~StoreWriter() { stop(); }

bool StoreWriter::submit(WriteItem& item, std::function<void()> on_room) {
  {
    std::lock_guard lock(mu_);
    if (!stopping_) {
      if (queue_.size() >= options_.capacity) {
        waiting_for_room_.push_back(std::move(on_room));
        return false;
      }
      item.submitted = std::chrono::steady_clock::now();
      queue_.push_back(std::move(item));
      cv_.notify_one();
      return true;
    }
  }
  WriteItem late = std::move(item);
  late.done(WriteOutcome{WriteOutcome::Status::kFailed, "the store writer has stopped",
                         "the host is stopping"});
  return true;
}

void StoreWriter::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    paused_ = false;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::size_t StoreWriter::queued() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

void StoreWriter::pause() {
  std::lock_guard lock(mu_);
  paused_ = true;
}

void StoreWriter::resume() {
  {
    std::lock_guard lock(mu_);
    paused_ = false;
  }
  cv_.notify_all();
}

void StoreWriter::loop() {
  for (;;) {
    std::vector<WriteItem> batch = take_batch();
    if (batch.empty()) return;  // stopping and drained
    write(batch);
  }
}

std::vector<WriteItem> StoreWriter::take_batch() {
  std::vector<WriteItem> batch;
  std::vector<std::function<void()>> wake;
  {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return stopping_ || (!paused_ && !queue_.empty()); });
    const std::size_t n = std::min(queue_.size(), options_.max_batch);
    batch.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      batch.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    if (n > 0) wake.swap(waiting_for_room_);
  }
  for (auto& on_room : wake) on_room();  // outside the lock: they submit again
  return batch;
}

void StoreWriter::write(std::vector<WriteItem>& batch) {
  const std::vector<WriteOutcome> outcomes = ingest_items(store_, batch, options_);
  const auto committed = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (options_.on_committed && outcomes[i].status == WriteOutcome::Status::kStored) {
      options_.on_committed(committed - batch[i].submitted);
    }
    batch[i].done(outcomes[i]);
  }
}

}  // namespace schedrig::collector
