#include "events/draft.hpp"

namespace tally::events {

Draft::Draft() : message_(std::make_unique<capnp::MallocMessageBuilder>(256)) {
  message_->initRoot<schema::Event>();
}

Draft::Draft(schema::Event::Reader event)
    : message_(std::make_unique<capnp::MallocMessageBuilder>(256)) {
  message_->setRoot(event);
}

}  // namespace tally::events
