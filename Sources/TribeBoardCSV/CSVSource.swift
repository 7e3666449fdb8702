import CSystemCalls
import Foundation

/// The CSV input as a file that can be read more than once: the pre-scan, the reader and the
/// code reservations each read it from the start. A regular file is read where it is. Standard
/// input (`-`), a pipe (`<(…)`), a FIFO or a character device can be read only once, so it is
/// read once into an unnamed owner-only file (O_TMPFILE, gone when the run ends, however it
/// ends), and that copy is read back through /proc.
///
/// Bounded (docs/guarantees.md, "Bounds on what is read"): at most `maxBytes`, also for a regular
/// file (the pre-scan counts), so that /dev/zero or an endless FIFO ends with `csv.tooLarge`.
package final class CSVSource {
    /// 256 MB: about 2.8 million rows of a typical import (100,000 rows are 9 MB).
    package static let maxBytes = 256 << 20
    /// What the operator named (`-` for standard input), for reports and messages.
    package let name: String
    /// A path that reads the whole input from its start, every time.
    package let path: String
    private let copy: Int32?

    /// `limit`: `maxBytes` unless a test needs a bound it can reach quickly.
    package init(_ argument: String, limit: Int = CSVSource.maxBytes) throws(CSVImportError) {
        name = argument
        let input: Int32
        if argument == "-" {
            input = STDIN_FILENO
        } else {
            var status = stat()
            guard stat(argument, &status) == 0 else {
                throw .cannotOpen(
                    path: argument,
                    reason: errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                path = argument
                copy = nil
                return
            case S_IFDIR:
                throw .cannotOpen(path: argument, reason: "it is a folder, not a file")
            default:
                input = open(argument, O_RDONLY | O_CLOEXEC)
                guard input >= 0 else {
                    throw .cannotOpen(path: argument, reason: String(cString: strerror(errno)))
                }
            }
        }
        defer { if input != STDIN_FILENO { close(input) } }
        let descriptor = tb_open_unnamed_file(NSTemporaryDirectory(), 0o600)
        guard descriptor >= 0 else {
            throw .workingCopy(
                folder: NSTemporaryDirectory(), reason: String(cString: strerror(errno)))
        }
        copy = descriptor
        path = "/proc/self/fd/\(descriptor)"
        try Self.copyAll(from: input, to: descriptor, name: argument, limit: limit)
    }

    deinit { if let copy { close(copy) } }

    private static func copyAll(from input: Int32, to output: Int32, name: String, limit: Int)
        throws(CSVImportError)
    {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(reason: "reading \(name): \(String(cString: strerror(errno)))")
            }
            total += count
            guard total <= limit else { throw .tooLarge(path: name) }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes {
                    write(output, $0.baseAddress.map { $0 + offset }, count - offset)
                }
                guard written > 0 else {
                    throw .unreadable(
                        reason: "keeping a copy of \(name): \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }
}
