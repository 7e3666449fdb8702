import Foundation
import TribeBoardQR
import TribeBoardSupport
import TribeBoardDomain
import TribeBoardRemote

/// `DIR/new-codes.csv`: the new code of every re-coded family in full, for whoever tells the
/// families (the terminal and the report mask them). Owner-only, written whole or not at all; a
/// rerun writes it again with the codes earlier runs chose (the checkpoint keeps them).
enum MigrationCodesFile {
    static let name = "new-codes.csv"
    static let header = [
        "family_id", "source_record", "family_name", "new_code", "kept_by", "reason", "qr_file"
    ]

    /// The file's path, or nil when no family in place has a new code (nothing is written).
    static func write(_ items: [MigrationItem], to directory: String?) throws(FileSystemError)
        -> String?
    {
        let recoded = items.filter {
            $0.kind == .family && $0.outcome.isInPlace && !($0.recode?.newCode ?? "").isEmpty
        }
        guard let directory, !recoded.isEmpty else { return nil }
        var lines = [line(header)]
        for item in recoded {
            guard let recode = item.recode else { continue }
            lines.append(
                line([
                    item.destinationName, item.sourceName, item.copy.string(FamilyField.name) ?? "",
                    recode.newCode, recode.keptBy,
                    recode.reason,
                    QRCodeFiles.relativePath(for: FamilyID(rawValue: item.destinationName))
                ]))
        }
        let path = "\(directory)/\(name)"
        try AtomicFile.write(Array(lines.joined().utf8), to: path, permissions: 0o600)
        return path
    }

    private static func line(_ fields: [String]) -> String {
        fields.map(CSVField.escape).joined(separator: ",") + "\r\n"
    }
}
