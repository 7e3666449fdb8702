import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Failures of the file system, with the path and the system's reason.
public struct FileSystemError: Error, Equatable, LocalizedError {
    public let operation: String
    public let path: String
    public let reason: String

    public init(_ operation: String, path: String, errno code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.reason = String(cString: strerror(code))
    }

    public init(_ operation: String, path: String, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    public var errorDescription: String? { "cannot \(operation) \(path): \(reason)" }
}

/// Writes whole files so that a reader (or a re-run after kill -9) sees either nothing or the
/// complete file: the bytes go to a temporary sibling that is renamed over the final name.
///
/// No fsync: the guarantee is against a killed process, not a power cut, and an fsync per QR code
/// would cost more than encoding it. Temporary names carry the writer's pid so that a later run can
/// tell leftovers of dead processes from files a concurrent run is still writing.
public enum AtomicFile {
    public static let temporaryPrefix = ".tmp-"

    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o600) throws(FileSystemError) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = "\(directory)/\(temporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw FileSystemError("create", path: temporary) }
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let result = Glibc.write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return nil
        }
        let closeFailed = close(descriptor) != 0
        if let failure {
            unlink(temporary)
            throw FileSystemError("write", path: path, errno: failure)
        }
        if closeFailed {
            let code = errno
            unlink(temporary)
            throw FileSystemError("write", path: path, errno: code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileSystemError("rename into", path: path, errno: code)
        }
    }

    /// Removes temporary files left in `directory` by processes that no longer run.
    /// Returns how many were removed.
    @discardableResult
    public static func removeOrphans(in directory: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(temporaryPrefix) {
            let pidText = name.dropFirst(temporaryPrefix.count).prefix { $0.isNumber }
            guard let pid = Int32(pidText), !isRunning(pid) else { continue }
            if unlink("\(directory)/\(name)") == 0 { removed += 1 }
        }
        return removed
    }

    static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
