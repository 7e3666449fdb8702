import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a project file (pbxproj, plist, xcconfig, Swift source, workspace data) from a repository
/// doctor has never seen: only a regular file, opened without blocking (a FIFO in its place would
/// otherwise hang the read for ever), and never more than `limit` bytes.
package enum ProjectFileReader {
    /// What sits at a path when it is not a regular file, in words a user recognises.
    static func kind(ofMode mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO (named pipe), not a file"
        case S_IFDIR: return "a folder, not a file"
        case S_IFSOCK: return "a socket, not a file"
        case S_IFCHR, S_IFBLK: return "a device, not a file"
        default: return "not a regular file"
        }
    }

    package static func read(_ path: String, limit: Int) throws(XcodeProjectError) -> Data {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw errno == ENOENT || errno == ENOTDIR
                ? .notFound(path: path)
                : .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        if let kind = kind(ofMode: status.st_mode) { throw .unreadable(path: path, reason: kind) }
        // O_NONBLOCK: if the path became a FIFO since the stat, open returns at once; fstat then
        // says so.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .unreadable(
                path: path,
                reason: errno == EACCES ? "permission denied" : String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        if let kind = kind(ofMode: status.st_mode) { throw .unreadable(path: path, reason: kind) }
        guard status.st_size <= limit else {
            throw .unreadable(path: path, reason: "larger than \(limit / 1_000_000) MB")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes {
                readBytes(descriptor, $0.baseAddress, $0.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            guard data.count + count <= limit else {
                throw .unreadable(path: path, reason: "larger than \(limit / 1_000_000) MB")
            }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }
}

/// The C `read`, outside the enum whose own `read` would hide it.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int
{
    read(descriptor, buffer, count)
}
