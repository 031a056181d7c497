// TLS for HTTPS and WSS: a server context from a PEM certificate (chain) and private key.
//
// Thread safety: the context is built once at start and then only read.
#pragma once

#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <string>

namespace tally::daemon {

// TLS 1.2 or newer, the certificate chain and key from files. Throws ConfigError naming the file
// and OpenSSL's reason when they cannot be used.
std::unique_ptr<boost::asio::ssl::context> make_tls_context(const std::string& cert_file,
                                                            const std::string& key_file);

}  // namespace tally::daemon
