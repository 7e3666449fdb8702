import CSnapshotParser
import Foundation

package enum SnapshotError: Error, Equatable, LocalizedError {
    case cannotOpen(path: String, reason: String)
    case readFailed(path: String, reason: String)
    case parserUnavailable
    /// Past the bounds of `SnapshotReader`: read from outside (a FIFO, /dev/zero, /dev/urandom),
    /// a snapshot is never held or read without end.
    case lineTooLong(path: String, line: Int)
    case tooManyLines(path: String)
    case notASnapshot(path: String, line: Int)

    package var errorDescription: String? {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open the remote snapshot \(path): \(reason)"
        case .readFailed(let path, let reason): return "cannot read the remote snapshot \(path): \(reason)"
        case .parserUnavailable: return "cannot start the JSON parser (out of memory)"
        case .lineTooLong(let path, let line):
            return "line \(line) of the remote snapshot \(path) is longer than \(SnapshotReader.maxLineBytes >> 20) MB "
                + "(a CloudKit record is at most 1 MB): not a snapshot the toolkit wrote"
        case .tooManyLines(let path):
            return "the remote snapshot \(path) has more than \(SnapshotReader.maxLines) lines, more than the audit reads in one run"
        case .notASnapshot(let path, let line):
            return "the remote snapshot \(path) is not JSON Lines of CloudKit records: "
                + "\(SnapshotReader.maxUnreadableLines) of its first \(line) lines are not records"
        }
    }
}

/// A line of the snapshot that is not a record, and why.
struct MalformedSnapshotLine: Sendable, Equatable {
    package let line: Int
    package let reason: String
}

/// Streams a remote snapshot (JSON Lines, one CloudKit record dictionary a line) in 4 MB reads:
/// memory does not grow with the file. Blank lines are skipped; a line that is not a record is
/// reported with its number and the rest is read on. Bounded (docs/guarantees.md, "Bounds on what is read"):
/// a line of at most 4 MB, at most 10 million lines, and at most 100,000 that are not records,
/// so that /dev/zero, /dev/urandom or an endless FIFO end with an error instead of growing.
package struct SnapshotReader {
    static let chunkSize = 4 << 20
    package static let maxLineBytes = 4 << 20
    package static let maxLines = 10_000_000
    package static let maxUnreadableLines = 100_000

    let path: String
    /// `maxLines` unless a test needs a bound it can reach.
    var lineLimit = Self.maxLines

    func read(_ record: (RemoteRecordSummary) throws -> Void, malformed: (MalformedSnapshotLine) throws -> Void) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SnapshotError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard let parser = tb_snapshot_parser_new() else { throw SnapshotError.parserUnavailable }
        defer { tb_snapshot_parser_free(parser) }

        var unreadable = 0
        func counted(_ line: MalformedSnapshotLine) throws {
            unreadable += 1
            guard unreadable <= Self.maxUnreadableLines else { throw SnapshotError.notASnapshot(path: path, line: line.line) }
            try malformed(line)
        }
        var pending: [UInt8] = []  // a line cut by the end of a read
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        var lineNumber = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, Self.chunkSize) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SnapshotError.readFailed(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            try buffer.withUnsafeBufferPointer { chunk in
                var start = 0
                while start < count {
                    guard let newline = chunk[start..<count].firstIndex(of: 0x0A) else {
                        guard pending.count + count - start <= Self.maxLineBytes else {
                            throw SnapshotError.lineTooLong(path: path, line: lineNumber + 1)
                        }
                        pending.append(contentsOf: chunk[start..<count])
                        break
                    }
                    lineNumber += 1
                    guard lineNumber <= lineLimit else { throw SnapshotError.tooManyLines(path: path) }
                    guard pending.count + newline - start <= Self.maxLineBytes else {
                        throw SnapshotError.lineTooLong(path: path, line: lineNumber)
                    }
                    if pending.isEmpty {
                        try parse(UnsafeBufferPointer(rebasing: chunk[start..<newline]), number: lineNumber, parser: parser,
                                  record: record, malformed: counted)
                    } else {
                        pending.append(contentsOf: chunk[start..<newline])
                        try pending.withUnsafeBufferPointer { line in
                            try parse(line, number: lineNumber, parser: parser, record: record, malformed: counted)
                        }
                        pending.removeAll(keepingCapacity: true)
                    }
                    start = newline + 1
                }
            }
        }
        if !pending.isEmpty {
            try pending.withUnsafeBufferPointer { line in
                try parse(line, number: lineNumber + 1, parser: parser, record: record, malformed: counted)
            }
        }
    }

    private func parse(_ line: UnsafeBufferPointer<UInt8>, number: Int, parser: OpaquePointer,
                       record: (RemoteRecordSummary) throws -> Void, malformed: (MalformedSnapshotLine) throws -> Void) throws {
        var length = line.count
        if length > 0, line[length - 1] == 0x0D { length -= 1 }  // CRLF
        guard let base = line.baseAddress, line[0..<length].contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
        var parsed = tb_snapshot_record()
        var error: UnsafePointer<CChar>?
        let status = base.withMemoryRebound(to: CChar.self, capacity: length) { text in
            tb_snapshot_parse(parser, text, length, &parsed, &error)
        }
        guard status == 0 else {
            try malformed(MalformedSnapshotLine(line: number, reason: error.map { String(cString: $0) } ?? "unreadable"))
            return
        }
        guard parsed.deleted == 0 else { return }
        var summary = RemoteRecordSummary(recordName: Self.string(parsed.record_name) ?? "",
                                          recordType: Self.string(parsed.record_type) ?? "",
                                          code: Self.string(parsed.code), name: Self.string(parsed.name),
                                          createdAtMilliseconds: parsed.has_created != 0 ? parsed.created_ms : nil,
                                          invalidValue: parsed.created_problem.map { String(cString: $0) }, line: number)
        summary.codeIsNotString = parsed.code_not_string != 0
        try record(summary)
    }

    private static func string(_ text: tb_text) -> String? {
        guard let pointer = text.ptr else { return nil }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: text.length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: text.length), as: UTF8.self)
        }
    }
}
