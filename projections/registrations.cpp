#include "projections/registrations.hpp"

#include "schema/text.hpp"

#include <algorithm>

namespace tally::projections {

namespace {

std::string bytes(capnp::Data::Reader data) {
  return std::string(reinterpret_cast<const char*>(data.begin()), data.size());
}

}  // namespace

const char* registration_status_name(Registration::Status status) {
  switch (status) {
    case Registration::Status::registered:
      return "registered";
    case Registration::Status::waiting:
      return "waiting";
    case Registration::Status::cancelled:
      return "cancelled";
  }
  return "registered";
}

bool registration_open(const boost::json::object& rules) {
  const auto* v = rules.if_contains("registration");
  return v != nullptr && v->is_string() && v->as_string() == "open";
}

std::uint32_t registration_capacity(const boost::json::object& rules) {
  const auto* v = rules.if_contains("capacity");
  return v != nullptr && v->is_int64() ? static_cast<std::uint32_t>(v->as_int64()) : 0;
}

const Registration* Registrations::find(std::string_view id) const {
  auto it =
      std::find_if(all_.begin(), all_.end(), [&](const Registration& r) { return r.id == id; });
  return it == all_.end() ? nullptr : &*it;
}

Registration* Registrations::find_mutable(std::string_view id) {
  return const_cast<Registration*>(std::as_const(*this).find(id));
}

std::size_t Registrations::holding() const {
  return static_cast<std::size_t>(std::count_if(
      all_.begin(), all_.end(),
      [](const Registration& r) { return r.status == Registration::Status::registered; }));
}

std::vector<const Registration*> Registrations::waiting() const {
  std::vector<const Registration*> out;
  for (const auto& r : all_) {
    if (r.status == Registration::Status::waiting) out.push_back(&r);
  }
  return out;
}

std::size_t Registrations::position(std::string_view id) const {
  std::size_t n = 0;
  for (const auto& r : all_) {
    if (r.status != Registration::Status::waiting) continue;
    ++n;
    if (r.id == id) return n;
  }
  return 0;
}

const Registration* Registrations::moved_up_by_cancelling(std::string_view id) const {
  const Registration* r = find(id);
  if (r == nullptr || r->status != Registration::Status::registered) return nullptr;
  if (capacity_ != 0 && holding() - 1 >= capacity_) return nullptr;
  auto line = waiting();
  return line.empty() ? nullptr : line.front();
}

void Registrations::received(const schema::RegistrationReceived::Reader& event, std::uint64_t seq,
                             std::int64_t recorded_at) {
  Registration r;
  r.id = schema::text(event.getId());
  r.name = schema::text(event.getName());
  r.club = schema::text(event.getClub());
  r.person = schema::text(event.getPerson());
  r.email_sealed = bytes(event.getEmailSealed());
  r.key_hash = bytes(event.getKeyHash());
  r.seq = seq;
  r.recorded_at = recorded_at;
  // beyond the capacity a registration waits, in the order it came.
  const bool full = capacity_ != 0 && holding() >= capacity_;
  r.status = full ? Registration::Status::waiting : Registration::Status::registered;
  all_.push_back(std::move(r));
}

void Registrations::cancelled(std::string_view id) {
  Registration* r = find_mutable(id);
  if (r == nullptr || r->status == Registration::Status::cancelled) return;
  r->status = Registration::Status::cancelled;
  fill_places();  // a cancellation moves the first waiting one up
}

void Registrations::set(bool open, std::uint32_t capacity) {
  open_ = open;
  capacity_ = capacity;
  fill_places();
}

void Registrations::became_player(std::string_view id) {
  Registration* r = find_mutable(id);
  if (r == nullptr || r->status == Registration::Status::cancelled) return;
  r->status = Registration::Status::registered;
  r->player = true;
}

void Registrations::fill_places() {
  std::size_t held = holding();
  for (auto& r : all_) {
    if (capacity_ != 0 && held >= capacity_) return;
    if (r.status == Registration::Status::waiting) {
      r.status = Registration::Status::registered;
      ++held;
    }
  }
}

}  // namespace tally::projections
