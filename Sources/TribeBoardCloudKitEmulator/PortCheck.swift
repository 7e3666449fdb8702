import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether 127.0.0.1:port can be listened on, asked before the server starts: the server's own
/// bind failure surfaced only as a 30-second "timed out", and an operator who started a second
/// emulator on the port the docs use saw nothing for that long.
enum PortCheck {
    static func free(_ port: UInt16) throws(EmulatorStartError) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return }  // no socket to try with: the server says what it finds
        defer { close(socket) }
        var reuse: Int32 = 1
        // As the server binds: a port in TIME_WAIT is free, one with a listener is not.
        _ = setsockopt(
            socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound != 0 else { return }
        let code = errno
        throw .portUnavailable(
            port: port, reason: String(cString: strerror(code)), inUse: code == EADDRINUSE)
    }
}

public enum EmulatorStartError: Error, LocalizedError, Equatable {
    case portUnavailable(port: UInt16, reason: String, inUse: Bool)

    public var errorDescription: String? {
        switch self {
        case .portUnavailable(let port, let reason, let inUse):
            return "cannot listen on 127.0.0.1:\(port): \(reason)"
                + (inUse ? " (another program, perhaps another emulator, listens there: stop it, or pick another --port)" : "")
        }
    }
}
