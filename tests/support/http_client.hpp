// The tests use the project's own HTTP and WebSocket clients (client/http_client.hpp).
#pragma once

#include "client/http_client.hpp"

namespace tally::testing {

namespace http = client::http;
using client::HttpClient;
using client::HttpReply;
using client::WsClient;

}  // namespace tally::testing
