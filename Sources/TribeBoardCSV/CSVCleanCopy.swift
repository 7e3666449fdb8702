import CSystemCalls
import Foundation

/// The input with the lines of malformed records blanked (each line break kept, as LF), so that
/// CSV.swift reads every other record where it is and line numbers stay those of the file. The
/// copy is an unnamed file (O_TMPFILE) read back through /proc: owner-only, and nothing is left
/// behind whatever stops the run. Made only for files that have malformed records.
final class CSVCleanCopy {
    private let descriptor: Int32
    var path: String { "/proc/self/fd/\(descriptor)" }

    /// `droppingFirstLine`: an Excel `sep=` line goes, so that CSV.swift reads the header first.
    init(of source: String, blanking records: [CSVMalformedRecord], droppingFirstLine: Bool = false)
        throws(CSVImportError)
    {
        guard let input = FileHandle(forReadingAtPath: source) else {
            throw .cannotOpen(path: source, reason: "cannot read it again")
        }
        defer { try? input.close() }
        descriptor = tb_open_unnamed_file(NSTemporaryDirectory(), 0o600)
        guard descriptor >= 0 else {
            throw .workingCopy(
                folder: NSTemporaryDirectory(), reason: String(cString: strerror(errno)))
        }
        var blanker = LineBlanker(records: records[...], dropsFirstLine: droppingFirstLine)
        var output: [UInt8] = []
        output.reserveCapacity(1 << 16)
        do {
            while let chunk = try input.read(upToCount: 1 << 16), !chunk.isEmpty {
                for byte in chunk { blanker.copy(byte, into: &output) }
                try write(&output)
            }
        } catch let error as CSVImportError {
            throw error
        } catch {
            throw .unreadable(reason: "\(error)")
        }
    }

    deinit { close(descriptor) }

    private func write(_ bytes: inout [UInt8]) throws(CSVImportError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress, $0.count)
            }
            guard written > 0 else {
                throw .unreadable(
                    reason: "cannot write the working copy: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Copies bytes, dropping those on the lines of malformed records but their line breaks. Lines
    /// end as CSVPreScan counts them: LF, CR, or CRLF as one.
    struct LineBlanker {
        var records: ArraySlice<CSVMalformedRecord>
        var dropsFirstLine = false
        var line = 1
        var previousWasCR = false

        mutating func copy(_ byte: UInt8, into output: inout [UInt8]) {
            let isCR = byte == 0x0D
            defer { previousWasCR = isCR }
            if dropsFirstLine && (line == 1 || (line == 2 && byte == 0x0A && previousWasCR)) {
                if byte == 0x0A || isCR { line = 2 }
                return
            }
            while let first = records.first, first.lastLine < line { records = records.dropFirst() }
            let blanked = records.first.map { $0.line <= line } ?? false
            if byte == 0x0A && previousWasCR {
                if !blanked { output.append(byte) }
                return
            }
            if byte == 0x0A || isCR {
                output.append(blanked ? 0x0A : byte)
                line += 1
            } else if !blanked {
                output.append(byte)
            }
        }
    }
}
