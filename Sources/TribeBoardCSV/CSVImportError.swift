import Foundation

/// Problems with the input file as a whole: nothing is provisioned from it.
package enum CSVImportError: Error, Equatable, LocalizedError {
    case cannotOpen(path: String, reason: String)
    case invalidUTF8(line: Int)
    case unterminatedQuote(line: Int)
    case empty
    /// The header has no family_name column: what was read, and with which delimiter.
    case missingColumnInHeader(String, header: [String], delimiter: String)
    case utf16
    case utf32
    case duplicateColumn(String)
    case unreadable(reason: String)
    /// The working copy a pipe or a repaired file is read through cannot be made (TMPDIR
    /// missing, full or not writable): the machine's fault, not the file's.
    case workingCopy(folder: String, reason: String)
    case malformedHeader(CSVMalformedRecord)
    /// Over `CSVSource.maxBytes`: an endless FIFO or /dev/zero ends here instead of filling the
    /// disk.
    case tooLarge(path: String)
    /// `--map` names a header the file lacks, or two headers match one column: bad usage (64).
    case headerMapping(HeaderMappingProblem)

    package var errorDescription: String? {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open \(path): \(reason)"
        case .invalidUTF8(let line):
            return "line \(line) is not valid UTF-8; save the file as UTF-8"
        case .unterminatedQuote(let line):
            return "the quoted field that starts on line \(line) is never closed"
        case .empty: return "the file is empty; it needs a header row with at least family_name"
        case .missingColumnInHeader(let name, let header, let delimiter):
            let shown = header.prefix(8).map { "\"\($0)\"" }.joined(separator: ", ")
            let more = header.count > 8 ? ", …" : ""
            return "the header has no \(name) column: read with \(delimiter) as the delimiter, it holds "
                + "\(header.count) column\(header.count == 1 ? "" : "s") (\(shown)\(more))"
        case .utf16: return "the file is UTF-16 (as Excel's \"Unicode Text\" saves it); save it as \"CSV UTF-8\" and run again"
        case .utf32: return "the file is UTF-32; save it as \"CSV UTF-8\" and run again"
        case .duplicateColumn(let name): return "the header names \(name) more than once"
        case .unreadable(let reason): return "the file cannot be read as CSV: \(reason)"
        case .workingCopy(let folder, let reason):
            return "cannot make a working copy of the CSV in \(folder) (TMPDIR): \(reason); set TMPDIR to a writable folder"
        case .tooLarge(let path): return "\(path) is larger than \(CSVSource.maxBytes >> 20) MB, more than one run reads; split it into several files"
        case .headerMapping(let problem): return problem.localizedDescription
        case .malformedHeader(let record):
            return
                "the header row (line 1, field \(record.field)) is not valid CSV: \(record.reason)"
        }
    }
}
