import CSystemCalls
import Foundation

/// A file written in pieces into an unnamed file (O_TMPFILE) that `commit()` names and renames
/// into place, so a run stopped at any moment (kill -9, SIGTERM) leaves the previous file (or
/// none), never a truncated one, and no temporary file. Where the file system has no O_TMPFILE, a
/// named temporary sibling stands in. Mode 0600: what goes through here (manifests, snapshots)
/// holds family codes.
///
/// Written through a plain file descriptor: Foundation's OutputStream traps in `streamError` on
/// Linux.
package final class StreamingFile {
    package let path: String
    private let temporaryPath: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var closed = false
    /// The bytes are in an unnamed file until `commit()`.
    private let unnamed: Bool

    package init(path: String) throws(FileSystemError) {
        self.path = path
        let (directory, name) = AtomicFile.split(path)
        temporaryPath = "\(directory)/\(AtomicFile.temporaryPrefix)\(getpid())-\(name)"
        let anonymous = tb_open_unnamed_file(directory, 0o600)
        if anonymous >= 0 {
            descriptor = anonymous
            unnamed = true
        } else {
            // Never through a symlink or into a file someone else planted under the predictable
            // name; one of ours left by an earlier process that had the same pid is removed first.
            unlink(temporaryPath)
            descriptor = open(
                temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            unnamed = false
            guard descriptor >= 0 else { throw FileSystemError("create", path: temporaryPath) }
        }
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        if !closed { abandon() }
    }

    package func append<Bytes: Sequence>(_ bytes: Bytes) throws(FileSystemError)
    where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    package func commit() throws(FileSystemError) {
        try flush()
        closed = true
        if unnamed {
            // A name for the finished file, then rename over the old one (linkat cannot replace).
            unlink(temporaryPath)
            guard tb_link_unnamed_file(descriptor, temporaryPath) == 0 else {
                let code = errno
                close(descriptor)
                throw FileSystemError("create", path: temporaryPath, errno: code)
            }
        }
        try AtomicFile.moveIntoPlace(descriptor: descriptor, temporary: temporaryPath, path: path)
    }

    package func abandon() {
        guard !closed else { return }
        closed = true
        close(descriptor)
        if !unnamed { unlink(temporaryPath) }
    }

    private func flush() throws(FileSystemError) {
        try AtomicFile.writeAll(buffer, to: descriptor, path: temporaryPath)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// RFC 4180 records onto a `StreamingFile`, with CRLF line ends as spreadsheets expect.
package struct CSVRecordWriter {
    let file: StreamingFile
    /// A comma, or the semicolon or tab of the dialect an office's spreadsheet opens in columns.
    let delimiter: UInt8

    package init(file: StreamingFile, delimiter: UInt8 = 0x2C) {
        self.file = file
        self.delimiter = delimiter
    }

    package func append(_ fields: [String]) throws(FileSystemError) {
        var line: [UInt8] = []
        for (index, field) in fields.enumerated() {
            if index > 0 { line.append(delimiter) }
            line.append(contentsOf: CSVField.escape(field, delimiter: delimiter).utf8)
        }
        line.append(contentsOf: [0x0D, 0x0A])
        try file.append(line)
    }
}
