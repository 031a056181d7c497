#include "daemon/http/admission.hpp"

#include "daemon/log.hpp"

namespace tally::daemon {

std::string_view Admission::name(Refusal r) {
  switch (r) {
    case Refusal::max_connections:
      return "max_connections";
    case Refusal::per_address:
      return "per_address";
    case Refusal::reserved:
      return "reserved";
    case Refusal::count:
      break;
  }
  return "?";
}

Admission::Ticket& Admission::Ticket::operator=(Ticket&& other) noexcept {
  if (this != &other) {
    release();
    owner_ = std::move(other.owner_);
    address_ = std::move(other.address_);
    probation_ = other.probation_;
    other.owner_.reset();
  }
  return *this;
}

void Admission::Ticket::release() {
  if (owner_) {
    owner_->forget(address_);
    owner_.reset();
  }
}

Admission::Verdict Admission::admit(const std::string& address, std::size_t http_open) {
  Verdict verdict;
  if (http_open >= limits_.max_connections) {
    verdict.refusal = Refusal::max_connections;
  } else {
    std::lock_guard lock(mutex_);
    std::size_t& from_here = strangers_by_address_[address];
    if (from_here >= limits_.per_address) {
      verdict.refusal = Refusal::per_address;
      if (from_here == 0) strangers_by_address_.erase(address);
    } else {
      // Strangers already hold all but the reserved slots: this one must show a token to keep
      // the one it takes.
      verdict.ticket.probation_ = strangers_ >= limits_.max_connections - limits_.reserved;
      ++from_here;
      ++strangers_;
      verdict.admitted = true;
      verdict.ticket.owner_ = shared_from_this();
      verdict.ticket.address_ = address;
    }
  }
  if (!verdict.admitted) note(verdict.refusal, address);
  return verdict;
}

void Admission::forget(const std::string& address) {
  std::lock_guard lock(mutex_);
  auto it = strangers_by_address_.find(address);
  if (it != strangers_by_address_.end() && --it->second == 0) strangers_by_address_.erase(it);
  --strangers_;
}

std::size_t Admission::strangers() const {
  std::lock_guard lock(mutex_);
  return strangers_;
}

void Admission::note(Refusal refusal, const std::string& address) {
  ++refused_[static_cast<std::size_t>(refusal)];
  boost::json::object counts;
  {
    std::lock_guard lock(mutex_);
    ++unlogged_[static_cast<std::size_t>(refusal)];
    auto now = std::chrono::steady_clock::now();
    if (now - last_log_ < kLogInterval) return;
    last_log_ = now;
    for (std::size_t r = 0; r < unlogged_.size(); ++r) {
      if (unlogged_[r] > 0) counts[name(static_cast<Refusal>(r))] = unlogged_[r];
      unlogged_[r] = 0;
    }
  }
  log::warn("connections refused (counts since the last such line, at most one per 10 s)",
            {{"refused", std::move(counts)}, {"last_address", address}});
}

}  // namespace tally::daemon
