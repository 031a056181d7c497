// The tests use the project's own HTTP and WebSocket clients (net/http_client.hpp).
#pragma once

#include "net/http_client.hpp"

namespace tally::testing {

namespace http = tally::net::http;
using tally::net::HttpClient;
using tally::net::HttpReply;
using tally::net::WsClient;

}  // namespace tally::testing
