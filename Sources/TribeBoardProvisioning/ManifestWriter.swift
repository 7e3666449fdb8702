import Foundation
import TribeBoardCSV
import TribeBoardQR
import TribeBoardSupport

/// Streams `manifest.csv` into a temporary file renamed into place at the end, so a killed run
/// leaves the previous manifest (or none), never a truncated one.
final class ManifestWriter {
    static let header = [
        "line", "external_id", "family_id", "family_name", "code", "qr_file", "status", "error",
        "claim"
    ]

    private let file: StreamingFile
    private let records: CSVRecordWriter

    init(
        path: String,
        dialect: ManifestDialect = ManifestFormat.comma.dialect(
            input: .standard, byteOrderMark: false)
    ) throws(FileSystemError) {
        file = try StreamingFile(path: path)
        records = CSVRecordWriter(file: file, delimiter: dialect.delimiter)
        if dialect.byteOrderMark { try file.append([0xEF, 0xBB, 0xBF]) }
        try records.append(Self.header)
    }

    func append(_ row: ProvisionRowResult) throws(FileSystemError) {
        let qrFile =
            row.status == .failed || row.codeWithheld
            ? "" : row.familyId.map(QRCodeFiles.relativePath(for:)) ?? ""
        try records.append([
            String(row.line), row.externalId ?? "", row.familyId?.rawValue ?? "", row.familyName,
            row.codeWithheld ? "" : row.code ?? "", qrFile, row.status.rawValue, row.error ?? "",
            row.status == .failed ? "" : row.claim?.rawValue ?? ""
        ])
    }

    func commit() throws(FileSystemError) { try file.commit() }

    func abandon() { file.abandon() }
}
