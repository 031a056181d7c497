// Whether an address names this computer itself (loopback): 127.0.0.0/8, ::1 (also as an IPv4
// address mapped into IPv6), "localhost" and the names under it. A phone that scans a QR code of
// such an address reaches itself, not tallyd: the board, and the console beside the judges' and
// the tables' QR codes, warn the organizer.
//
//   isLoopbackHost(new URL("http://127.0.0.1:8080/").hostname)   // true
//   isLoopbackOrigin("http://[::1]:8080")                        // true

export function isLoopbackHost(hostname) {
  const host = String(hostname || "")
    .toLowerCase()
    .replace(/^\[|\]$/g, "") // "[::1]", as URL writes an IPv6 host
    .replace(/\.$/, ""); // "localhost." is localhost too
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  if (host === "::1" || /^(0{0,4}:){7}0{0,3}1$/.test(host)) return true;
  // ::ffff:127.0.0.1, which URL writes as ::ffff:7f00:1
  return /^::ffff:(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|7f[0-9a-f]{2}:[0-9a-f]{1,4})$/.test(host);
}

// The same of an origin ("http://192.168.1.20:8080"); false for one that is not an address.
export function isLoopbackOrigin(origin) {
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}
