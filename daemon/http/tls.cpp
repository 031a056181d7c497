#include "daemon/http/tls.hpp"

#include "daemon/config.hpp"

namespace tally::daemon {

std::unique_ptr<boost::asio::ssl::context> make_tls_context(const std::string& cert_file,
                                                            const std::string& key_file) {
  namespace ssl = boost::asio::ssl;
  auto context = std::make_unique<ssl::context>(ssl::context::tls_server);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                       ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                       ssl::context::single_dh_use);
  boost::system::error_code ec;
  context->use_certificate_chain_file(cert_file, ec);
  if (ec) throw ConfigError("tls_cert: cannot use " + cert_file + ": " + ec.message());
  context->use_private_key_file(key_file, ssl::context::pem, ec);
  if (ec) throw ConfigError("tls_key: cannot use " + key_file + ": " + ec.message());
  return context;
}

}  // namespace tally::daemon
