import Foundation
import GRDB
import TribeBoardSupport

extension StoreError {
    /// A failure while writing: a store another process kept locked past the wait is `busy`,
    /// worded apart from a real write failure, and names the toolkit's runs that hold it.
    package static func writing(_ error: any Error, store path: String?) -> StoreError {
        if let typed = error as? StoreError { return typed }
        if let busy = busy(error, store: path) { return busy }
        // A store that cannot be written says which file stands in the way, and how to fix it.
        if let database = error as? DatabaseError, let path,
           [.SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM].contains(database.resultCode),
           let problem = StoreFiles.writeProblem(path: path) {
            return .writeFailed(reason: "\(database.message ?? "\(database.resultCode)"): \(problem)")
        }
        return .writeFailed(reason: reason(error))
    }

    package static func reading(_ error: any Error, store path: String?) -> StoreError {
        if let typed = error as? StoreError { return typed }
        return busy(error, store: path) ?? .readFailed(reason: reason(error))
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
            guard let written = SidecarLock.holder(path) else { return nil }
            // The pid a run wrote, if that process is still one of ours (the file may hold an
            // earlier run's pid while something else holds the lock).
            let pid = written.flatMap { pid in
                (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?.contains("tribeboard") == true ? pid : nil
            }
            return "a \(command) run" + (pid.map { " (pid \($0))" } ?? "") + " holding \(path)"
        }
    }
}

/// What writing to a store needs of the file system: the store file, its `-wal` and `-shm` when
/// they exist (a stale `-shm` left read-only keeps the store unwritable after the store's own
/// mode is fixed), and the folder (SQLite creates them there).
package enum StoreFiles {
    package static func writeProblem(path: String) -> String? {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if onReadOnlyFileSystem(path) {
            return "\(folder) is on a read-only file system (a backup or snapshot?): commands that only read the "
                + "store work; provision, resync and repairs need a writable copy"
        }
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            guard access(file, W_OK) != 0 else { continue }
            var info = stat()
            let mode = stat(file, &info) == 0 ? " (mode \(String(info.st_mode & 0o777, radix: 8)), owner uid \(info.st_uid))" : ""
            let fix = file == path ? "chmod 600 it, owned by the user that runs the toolkit"
                : "chmod 600 it, or delete it while no process has the store open"
            return "\(file) is not writable by this user\(mode): \(fix)"
        }
        if access(folder, W_OK) != 0 { return "the folder \(folder) is not writable (SQLite keeps the store's -wal and -shm files there)" }
        return nil
    }
}

extension StoreFiles {
    /// Whether the store's folder is on a file system mounted read-only (EROFS for any write,
    /// whatever the files' modes say).
    package static func onReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let readOnlyFlag: UInt = 1  // ST_RDONLY (statvfs(3))
        return statvfs(folder, &info) == 0 && (info.f_flag & readOnlyFlag) != 0
    }
}
