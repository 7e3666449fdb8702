import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Turns Nagle's algorithm off on the emulator's listening socket; on Linux accepted sockets
/// inherit TCP_NODELAY. FlyingFox writes a response's headers and body separately: with Nagle on,
/// the body waited for the client's delayed ACK, about 40 ms a request, which made a 100,000-record
/// resync benchmark measure that wait. FlyingFox offers no hook on its sockets, so the listening
/// socket is found among this process's descriptors by the port it is bound to.
enum ListenerNoDelay {
    static func apply(port: UInt16) {
        guard
            let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        else { return }
        for name in descriptors {
            guard let descriptor = Int32(name) else { continue }
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    getsockname(descriptor, $0, &length)
                }
            }
            guard bound == 0, address.sin_family == sa_family_t(AF_INET),
                UInt16(bigEndian: address.sin_port) == port
            else { continue }
            var listening: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) == 0,
                listening == 1
            else { continue }
            var on: Int32 = 1
            _ = setsockopt(
                descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on,
                socklen_t(MemoryLayout<Int32>.size))
        }
    }
}
