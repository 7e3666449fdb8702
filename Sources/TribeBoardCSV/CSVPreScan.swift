import Foundation

/// One fast pass over the raw bytes before anything is written: counts data records (for the
/// progress bar's ETA), rejects files the CSV parser would silently misread (CSV.swift reads an
/// unclosed quote to the end of the file as one field, and stops at the first invalid UTF-8 byte),
/// and finds the records that break RFC 4180's quoting. CSV.swift reads `"Smith" x` by staying in
/// the quoted field, swallowing the lines after it; here such a record ends at its line's end, and
/// the reader hands it over as a malformed record that fails alone.
package struct CSVPreScan: Sendable {
    package let dataRecords: Int
    /// Records that break the quoting rules, in file order; the header is never one of them.
    package let malformedRecords: [CSVMalformedRecord]
    /// The delimiter, and where the header is.
    package let format: CSVFormat
    /// The file starts with a UTF-8 byte order mark (as Excel's "CSV UTF-8" saves).
    package var byteOrderMark = false
    /// Each line's row as a spreadsheet numbers it (notes with line breaks make them differ).
    package var rows = SpreadsheetRows()

    package static func scan(path: String, limit: Int = CSVSource.maxBytes) throws(CSVImportError)
        -> CSVPreScan
    {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            throw .cannotOpen(path: path, reason: "it is a folder, not a file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotOpen(
                path: path,
                reason: FileManager.default.fileExists(atPath: path)
                    ? "permission denied" : "no such file")
        }
        defer { try? handle.close() }
        var scanner: Scanner?
        var total = 0
        var byteOrderMark = false
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 16) ?? Data()
            } catch {
                throw .unreadable(reason: "\(error)")
            }
            if chunk.isEmpty { break }
            total += chunk.count
            guard total <= limit else { throw .tooLarge(path: path) }
            if scanner == nil {
                scanner = Scanner(format: try CSVFormat.detect(Array(chunk.prefix(4096))))
                byteOrderMark = chunk.starts(with: [0xEF, 0xBB, 0xBF])
            }
            let failure = chunk.withUnsafeBytes { bytes -> CSVImportError? in
                do throws(CSVImportError) { try scanner?.consume(bytes) } catch { return error }
                return nil
            }
            if let failure { throw failure }
        }
        guard var scanner else { throw .empty }
        let records = try scanner.finish()
        var preScan = CSVPreScan(
            dataRecords: records, malformedRecords: scanner.malformed, format: scanner.format)
        preScan.byteOrderMark = byteOrderMark
        preScan.rows = SpreadsheetRows(
            multiLine: scanner.multiLine, headerLine: scanner.format.headerLine)
        return preScan
    }

    /// Where the current field stands, following CSV.swift's reading of the same bytes.
    enum FieldState {
        case start, unquoted, quoted
        /// A quote inside a quoted field: the field's end, or the first half of `""`.
        case quoteInQuoted
        /// The record is malformed; the rest of its line belongs to it.
        case skippingLine
    }

    struct Scanner {
        let format: CSVFormat
        var line = 1
        var state = FieldState.start
        var quoteLine = 0
        var field = 1
        var recordLine = 1
        var problem: (field: Int, reason: String)?
        var malformed: [CSVMalformedRecord] = []
        var recordHasContent = false
        var records = 0
        var utf8Pending = 0
        /// What the next continuation byte may be: narrower than 80...BF right after some lead
        /// bytes, which rules out overlong forms, UTF-16 surrogates and code points past U+10FFFF.
        var utf8NextRange: ClosedRange<UInt8> = 0x80...0xBF
        var previousWasCR = false
        var sawAnyByte = false
        /// For each record of more than one line: the line after it and the lines it spans less
        /// one.
        var multiLine: [(next: Int, extra: Int)] = []

        mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(CSVImportError) {
            for byte in bytes {
                sawAnyByte = true
                try checkUTF8(byte)
                let isCR = byte == 0x0D
                defer { previousWasCR = isCR }
                if byte == 0x0A || isCR {
                    if byte == 0x0A && previousWasCR { continue }  // CRLF is one line end
                    line += 1
                    if state != .quoted { endRecord() }
                    continue
                }
                step(byte)
                // A row of bare separators (`,,` as spreadsheets export empty rows) has no content.
                if byte != 0x20 && byte != 0x09 && byte != format.delimiter && byte != 0x22 {
                    recordHasContent = true
                }
            }
        }

        private mutating func checkUTF8(_ byte: UInt8) throws(CSVImportError) {
            if utf8Pending > 0 {
                guard utf8NextRange.contains(byte) else { throw .invalidUTF8(line: line) }
                utf8Pending -= 1
                utf8NextRange = 0x80...0xBF
                return
            }
            switch byte {
            case 0x00...0x7F: return
            case 0xC2...0xDF: utf8Pending = 1
            case 0xE0: (utf8Pending, utf8NextRange) = (2, 0xA0...0xBF)
            case 0xED: (utf8Pending, utf8NextRange) = (2, 0x80...0x9F)
            case 0xE1...0xEF: utf8Pending = 2
            case 0xF0: (utf8Pending, utf8NextRange) = (3, 0x90...0xBF)
            case 0xF4: (utf8Pending, utf8NextRange) = (3, 0x80...0x8F)
            case 0xF1...0xF3: utf8Pending = 3
            default: throw .invalidUTF8(line: line)
            }
        }

        /// One byte that is not a line break, through RFC 4180's field grammar.
        private mutating func step(_ byte: UInt8) {
            switch (state, byte) {
            case (.skippingLine, _): return
            case (.start, 0x22): state = .quoted; quoteLine = line
            case (.start, format.delimiter), (.unquoted, format.delimiter),
                (.quoteInQuoted, format.delimiter):
                state = .start; field += 1
            case (.start, _): state = .unquoted
            case (.unquoted, 0x22):
                malformed(reason: "a quote inside a field that does not start with one; quote the whole field "
                    + "and double the quote (\"\")")
            case (.unquoted, _): return
            case (.quoted, 0x22): state = .quoteInQuoted
            case (.quoted, _): return
            case (.quoteInQuoted, 0x22): state = .quoted
            case (.quoteInQuoted, _):
                malformed(
                    reason:
                        "\(Self.describe(byte)) after the closing quote; a quoted field ends at a "
                        + "\(format.delimiterName) or the end of the line")
                state = .skippingLine
            }
        }

        private mutating func malformed(reason: String) {
            if problem == nil { problem = (field, reason) }
        }

        static func describe(_ byte: UInt8) -> String {
            switch byte {
            case 0x20: return "a space"
            case 0x09: return "a tab"
            case 0x21...0x7E: return "\"\(Character(Unicode.Scalar(byte)))\""
            default: return "a non-ASCII character"
            }
        }

        private mutating func endRecord() {
            if let problem {
                malformed.append(
                    CSVMalformedRecord(
                        line: recordLine, lastLine: line - 1, field: problem.field,
                        reason: problem.reason))
                recordHasContent = true
            }
            if recordHasContent { records += 1 }
            if line - recordLine > 1 { multiLine.append((line, line - recordLine - 1)) }
            recordHasContent = false
            problem = nil
            state = .start
            field = 1
            recordLine = line
        }

        mutating func finish() throws(CSVImportError) -> Int {
            if utf8Pending > 0 { throw .invalidUTF8(line: line) }
            if state == .quoted { throw .unterminatedQuote(line: quoteLine) }
            line += 1  // the last line has no line break: end its record as if it had
            endRecord()
            if let header = malformed.first, header.line == format.headerLine {
                throw .malformedHeader(header)
            }
            // The header, and Excel's `sep=` line before it.
            guard sawAnyByte, records >= format.headerLine else { throw .empty }
            return records - format.headerLine
        }
    }
}

/// A record that breaks RFC 4180's quoting: it fails alone, naming where and what was found.
package struct CSVMalformedRecord: Sendable, Equatable {
    /// The physical lines it covers, as an editor numbers them.
    package let line: Int
    let lastLine: Int
    /// 1-based position of the field where the problem is.
    package let field: Int
    package let reason: String
}

/// A spreadsheet shows a record whose notes hold line breaks as one row: what an editor numbers
/// line 353 is row 309 once 44 line breaks inside fields came before it. The header is row 1
/// (Excel's `sep=` line before it is not shown).
package struct SpreadsheetRows: Sendable, Equatable {
    /// The first line after each record of several lines, and the line breaks inside fields up to
    /// it.
    private var starts: [Int] = []
    private var breaks: [Int] = []
    private var headerLine = 1

    package init() {}

    init(multiLine: [(next: Int, extra: Int)], headerLine: Int) {
        var total = 0
        for (next, extra) in multiLine {
            total += extra
            starts.append(next)
            breaks.append(total)
        }
        self.headerLine = headerLine
    }

    /// The row of the record that starts on `line`.
    package func row(ofLine line: Int) -> Int {
        // The last record of several lines that ended before `line` (binary search).
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= line { low = middle + 1 } else { high = middle }
        }
        return line - (low == 0 ? 0 : breaks[low - 1]) - (headerLine - 1)
    }

    /// "line 353 (row 309)", or "line 40" where the two agree.
    package func describe(line: Int) -> String {
        let row = row(ofLine: line)
        return row == line ? "line \(line)" : "line \(line) (row \(row))"
    }
}
