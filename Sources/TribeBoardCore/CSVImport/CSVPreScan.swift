import Foundation

/// One fast pass over the raw bytes before anything is written: counts data records (for the
/// progress bar's ETA) and rejects files the CSV parser would silently misread. CSV.swift reads an
/// unclosed quote to the end of the file as one field, and stops at the first invalid UTF-8 byte.
public struct CSVPreScan: Sendable {
    public let dataRecords: Int

    public static func scan(path: String) throws(CSVImportError) -> CSVPreScan {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .cannotOpen(path: path, reason: "it is a folder, not a file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotOpen(path: path, reason: FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        defer { try? handle.close() }
        var scanner = Scanner()
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 16) ?? Data()
            } catch {
                throw .unreadable(reason: "\(error)")
            }
            if chunk.isEmpty { break }
            let failure = chunk.withUnsafeBytes { bytes -> CSVImportError? in
                do throws(CSVImportError) { try scanner.consume(bytes) } catch { return error }
                return nil
            }
            if let failure { throw failure }
        }
        return CSVPreScan(dataRecords: try scanner.finish())
    }

    struct Scanner {
        var line = 1
        var inQuotes = false
        var quoteLine = 0
        var recordHasContent = false
        var records = 0
        var utf8Pending = 0
        /// What the next continuation byte may be: narrower than 80...BF right after some lead
        /// bytes, which rules out overlong forms, UTF-16 surrogates and code points past U+10FFFF.
        var utf8NextRange: ClosedRange<UInt8> = 0x80...0xBF
        var previousWasCR = false
        var sawAnyByte = false

        mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(CSVImportError) {
            for byte in bytes {
                sawAnyByte = true
                try checkUTF8(byte)
                let isCR = byte == 0x0D
                defer { previousWasCR = isCR }
                if byte == 0x0A || isCR {
                    if byte == 0x0A && previousWasCR { continue }  // CRLF is one line end
                    line += 1
                    if !inQuotes { endRecord() }
                    continue
                }
                if byte == 0x22 {
                    if !inQuotes { quoteLine = line }
                    inQuotes.toggle()
                }
                // A row of bare separators (`,,` as spreadsheets export empty rows) has no content.
                if byte != 0x20 && byte != 0x09 && byte != 0x2C && byte != 0x22 { recordHasContent = true }
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

        private mutating func endRecord() {
            if recordHasContent { records += 1 }
            recordHasContent = false
        }

        mutating func finish() throws(CSVImportError) -> Int {
            if utf8Pending > 0 { throw .invalidUTF8(line: line) }
            if inQuotes { throw .unterminatedQuote(line: quoteLine) }
            endRecord()
            guard sawAnyByte, records > 0 else { throw .empty }
            return records - 1  // the header
        }
    }
}
