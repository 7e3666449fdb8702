import Foundation

/// Streams `manifest.csv` into a temporary file renamed into place at the end, so a killed run
/// leaves the previous manifest (or none), never a truncated one.
///
/// Written through a plain file descriptor: Foundation's OutputStream (which CSV.swift's writer
/// needs) traps in `streamError` on Linux.
final class ManifestWriter {
    static let header = ["line", "external_id", "family_id", "family_name", "code", "qr_file", "status", "error"]

    private let finalPath: String
    private let temporaryPath: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    init(path: String) throws(FileSystemError) {
        finalPath = path
        temporaryPath = "\(AtomicFile.split(path).directory)/\(AtomicFile.temporaryPrefix)\(getpid())-manifest.csv"
        // Never through a symlink or into a file someone else planted under the predictable name;
        // one of ours left by an earlier process that had the same pid is removed first.
        unlink(temporaryPath)
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileSystemError("create", path: temporaryPath) }
        buffer.reserveCapacity(1 << 16)
        try appendRecord(Self.header)
    }

    deinit {
        if !closed { abandon() }
    }

    func append(_ row: ProvisionRowResult) throws(FileSystemError) {
        let qrFile = row.status == .failed ? "" : row.familyId.map(QRCodeFiles.relativePath(for:)) ?? ""
        try appendRecord([String(row.line), row.externalId ?? "", row.familyId ?? "", row.familyName,
                          row.code ?? "", qrFile, row.status.rawValue, row.error ?? ""])
    }

    func commit() throws(FileSystemError) {
        try flush()
        closed = true
        try AtomicFile.moveIntoPlace(descriptor: descriptor, temporary: temporaryPath, path: finalPath)
    }

    func abandon() {
        guard !closed else { return }
        closed = true
        close(descriptor)
        unlink(temporaryPath)
    }

    private func appendRecord(_ fields: [String]) throws(FileSystemError) {
        for (index, field) in fields.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(contentsOf: CSVField.escape(field).utf8)
        }
        buffer.append(contentsOf: [0x0D, 0x0A])  // RFC 4180 line ends, as spreadsheets expect
        if buffer.count >= 1 << 16 { try flush() }
    }

    private func flush() throws(FileSystemError) {
        try AtomicFile.writeAll(buffer, to: descriptor, path: temporaryPath)
        buffer.removeAll(keepingCapacity: true)
    }
}

enum CSVField {
    /// RFC 4180: quote a field holding a comma, quote or line break, doubling its quotes.
    static func escape(_ field: String) -> String {
        // Bytes, not Characters: grapheme breaking is measurable at 800,000 fields a run.
        guard field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
