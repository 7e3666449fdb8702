import CSnapshotParser
import Foundation

package enum SnapshotError: Error, Equatable, LocalizedError {
    case cannotOpen(path: String, reason: String)
    case readFailed(path: String, reason: String)
    case parserUnavailable

    package var errorDescription: String? {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open the remote snapshot \(path): \(reason)"
        case .readFailed(let path, let reason): return "cannot read the remote snapshot \(path): \(reason)"
        case .parserUnavailable: return "cannot start the JSON parser (out of memory)"
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
/// reported with its number and the rest is read on.
struct SnapshotReader {
    static let chunkSize = 4 << 20

    let path: String

    func read(_ record: (RemoteRecordSummary) throws -> Void, malformed: (MalformedSnapshotLine) throws -> Void) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SnapshotError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard let parser = tb_snapshot_parser_new() else { throw SnapshotError.parserUnavailable }
        defer { tb_snapshot_parser_free(parser) }

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
                        pending.append(contentsOf: chunk[start..<count])
                        break
                    }
                    lineNumber += 1
                    if pending.isEmpty {
                        try parse(UnsafeBufferPointer(rebasing: chunk[start..<newline]), number: lineNumber, parser: parser,
                                  record: record, malformed: malformed)
                    } else {
                        pending.append(contentsOf: chunk[start..<newline])
                        try pending.withUnsafeBufferPointer { line in
                            try parse(line, number: lineNumber, parser: parser, record: record, malformed: malformed)
                        }
                        pending.removeAll(keepingCapacity: true)
                    }
                    start = newline + 1
                }
            }
        }
        if !pending.isEmpty {
            try pending.withUnsafeBufferPointer { line in
                try parse(line, number: lineNumber + 1, parser: parser, record: record, malformed: malformed)
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
        if parsed.code_not_string != 0 {
            try malformed(MalformedSnapshotLine(line: number, reason: "the code field's value is not a string"))
            return
        }
        try record(RemoteRecordSummary(recordName: Self.string(parsed.record_name) ?? "",
                                       recordType: Self.string(parsed.record_type) ?? "",
                                       code: Self.string(parsed.code), name: Self.string(parsed.name),
                                       createdAtMilliseconds: parsed.has_created != 0 ? parsed.created_ms : nil,
                                       invalidValue: parsed.created_problem.map { String(cString: $0) }, line: number))
    }

    private static func string(_ text: tb_text) -> String? {
        guard let pointer = text.ptr else { return nil }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: text.length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: text.length), as: UTF8.self)
        }
    }
}
