import CSystemCalls
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Failures of the file system, with the path and the system's reason.
package struct FileSystemError: Error, Equatable, LocalizedError {
    package let operation: String
    package let path: String
    package let reason: String

    package init(_ operation: String, path: String, errno code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.reason = String(cString: strerror(code))
    }

    package init(_ operation: String, path: String, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    package var errorDescription: String? { "cannot \(operation) \(path): \(reason)" }
}

/// Writes whole files so that a reader (or a re-run after kill -9) sees either nothing or the
/// complete file.
///
/// The bytes go into an unnamed file (O_TMPFILE) that is linked under its name once complete: one
/// directory operation per file, and a killed process leaves nothing behind. Where the file system
/// cannot do that, a temporary sibling is renamed over the name instead; its name carries the pid
/// so a later run can tell a dead process's leftovers from a concurrent run's work in progress.
/// No fsync: the guarantee is against a killed process, not a power cut, and an fsync per QR code
/// would cost more than encoding it.
package enum AtomicFile {
    static let temporaryPrefix = ".tmp-"

    package enum WhenPresent: Sendable {
        /// The name already holds a complete file with the same content (a concurrent run wrote
        /// it).
        case keepExisting
        case replace
    }

    package static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o600,
                             whenPresent: WhenPresent = .replace) throws(FileSystemError) {
        let (directory, name) = split(path)
        if whenPresent == .keepExisting {
            let descriptor = tb_open_unnamed_file(directory, permissions)
            if descriptor >= 0 {
                defer { close(descriptor) }
                try writeAll(bytes, to: descriptor, path: path)
                guard tb_link_unnamed_file(descriptor, path) == 0 else {
                    guard errno == EEXIST else { throw FileSystemError("create", path: path) }
                    // Kept only when what is there is a plain file (one of ours, complete: every
                    // file is linked whole). A link, a FIFO or a folder planted under the name was
                    // not written by anyone: it is named, never followed, never counted.
                    try requirePlainFile(at: path)
                    return
                }
                return
            }
            guard errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL else {
                throw FileSystemError("create a file in", path: directory)
            }
        }
        try writeByRename(
            bytes, to: path, directory: directory, name: name, permissions: permissions)
    }

    /// Throws when `path` holds something other than a plain file, saying what it is and what to
    /// do.
    static func requirePlainFile(at path: String) throws(FileSystemError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw FileSystemError("create", path: path) }
        let what: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK: what = "a symbolic link, which the toolkit does not follow"
        case S_IFDIR: what = "a folder"
        default: what = "a special file (a FIFO, a socket or a device)"
        }
        throw FileSystemError(
            "write", path: path, reason: "\(what) is where the file goes; remove it and run again")
    }

    /// The folder and the file name of `path` (NSString's path methods bridge on every call).
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }

    private static func writeByRename(
        _ bytes: [UInt8], to path: String, directory: String, name: String,
        permissions: mode_t
    ) throws(FileSystemError) {
        let nonce = UInt32.random(in: 0...UInt32.max)
        let temporary = "\(directory)/\(temporaryPrefix)\(getpid())-\(nonce)-\(name)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        // Named by the file asked for: the temporary name means nothing to the operator.
        guard descriptor >= 0 else { throw FileSystemError("create", path: path) }
        do {
            try writeAll(bytes, to: descriptor, path: path)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        try moveIntoPlace(descriptor: descriptor, temporary: temporary, path: path)
    }

    /// Closes a finished temporary file and renames it to `path`; on failure the temporary goes.
    static func moveIntoPlace(descriptor: Int32, temporary: String, path: String)
        throws(FileSystemError)
    {
        guard close(descriptor) == 0 else {
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

    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String)
        throws(FileSystemError)
    {
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let result = Glibc.write(
                    descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if result == 0 { return EIO }
                written += result
            }
            return nil
        }
        if let failure { throw FileSystemError("write", path: path, errno: failure) }
    }

    /// Removes temporary files left in `directory` by processes that no longer run.
    /// Returns how many were removed.
    @discardableResult
    package static func removeOrphans(in directory: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            return 0
        }
        var removed = 0
        for name in names where name.hasPrefix(temporaryPrefix) {
            let pidText = name.dropFirst(temporaryPrefix.count).prefix { $0.isNumber }
            guard let pid = Int32(pidText), !isRunning(pid) else { continue }
            if unlink("\(directory)/\(name)") == 0 { removed += 1 }
        }
        return removed
    }

    package static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
