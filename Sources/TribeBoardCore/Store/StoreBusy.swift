import Foundation
import GRDB

extension StoreError {
    /// A failure while writing: a store another process kept locked past the wait is `busy`,
    /// worded apart from a real write failure, and names the toolkit's runs that hold it.
    public static func writing(_ error: any Error, store path: String?) -> StoreError {
        busy(error, store: path) ?? .writeFailed(reason: "\(error)")
    }

    public static func reading(_ error: any Error, store path: String?) -> StoreError {
        busy(error, store: path) ?? .readFailed(reason: "\(error)")
    }

    private static func busy(_ error: any Error, store path: String?) -> StoreError? {
        guard let database = error as? DatabaseError,
              database.resultCode == .SQLITE_BUSY || database.resultCode == .SQLITE_LOCKED else { return nil }
        return .busy(path: path ?? "the store", holders: path.map(StoreHolders.describe) ?? [])
    }
}

/// Who holds a store, as far as the toolkit can tell: its own runs announce themselves in the
/// sidecar lock files (flock held for the run, pid inside). Anything else (sqlite3, the app's
/// tooling) is not named.
enum StoreHolders {
    static let sidecars = [("provision", ".provision-lock"), ("resync", ".resync-lock")]

    /// How long a run waits for another writer before it gives up as busy: 60 s, or
    /// `TRIBEBOARD_BUSY_TIMEOUT` seconds (0 to 3600) for jobs that must not wait that long.
    static var busyTimeout: TimeInterval {
        guard let text = ProcessInfo.processInfo.environment["TRIBEBOARD_BUSY_TIMEOUT"], let seconds = Double(text),
              (0...3600).contains(seconds) else { return 60 }
        return seconds
    }

    static func describe(_ storePath: String) -> [String] {
        sidecars.compactMap { command, suffix in
            let path = storePath + suffix
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            // A run holds the lock exclusively for as long as it runs: a shared lock we cannot
            // take means one is running (and one we can take is released at once).
            guard flock(descriptor, LOCK_SH | LOCK_NB) != 0, errno == EWOULDBLOCK else { return nil }
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &buffer, buffer.count, 0)
            // The pid a run wrote, if that process is still one of ours (the file may hold an
            // earlier run's pid while something else holds the lock).
            let pid = Int32(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).trimmed).flatMap { pid in
                (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?.contains("tribeboard") == true ? pid : nil
            }
            return "a \(command) run" + (pid.map { " (pid \($0))" } ?? "") + " holding \(path)"
        }
    }
}
