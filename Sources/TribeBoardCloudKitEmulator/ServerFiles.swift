import Foundation

/// HTTP's Date header (IMF-fixdate), which every answer carries.
enum ServerClock {
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

/// The `--data` file: written whole to a temporary file beside it, then renamed over it, so a
/// kill -9 leaves the previous save or the new one, never half of one.
enum DataFile {
    static func write(_ bytes: Data, to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: bytes, attributes: [.posixPermissions: 0o600])
        else {
            throw EmulatorError.cannotLoad(path: temporary, reason: "cannot write")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw EmulatorError.cannotLoad(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
