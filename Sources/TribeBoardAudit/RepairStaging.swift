import Foundation
import GRDB
import TribeBoardQR
import TribeBoardStore
import TribeBoardSupport

/// The folder where a repair run writes its new QR codes before the store commits them:
/// `DIR/.repair-staging-PID/FAMILY_ID.png` (owner-only, inside the output folder so a rename
/// puts each file in place). Nothing outside it names a new code until the commit.
struct RepairStaging {
    static let prefix = ".repair-staging-"

    let path: String

    init(in folder: OutputFolder) throws(FileSystemError) {
        path = "\(folder.path)/\(Self.prefix)\(getpid())"
        guard mkdir(path, 0o700) == 0 else { throw FileSystemError("create", path: path) }
    }

    func file(for familyID: String) -> String { "\(path)/\(familyID).png" }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// Finishes what killed runs left: for each family with a PNG in a dead run's staging folder
    /// whose current code is one a repair committed, its QR code is written afresh from the store
    /// (the staged file may hold a code that was never committed); then the folder goes.
    /// Returns how many QR codes were put in place.
    static func recover(in folder: OutputFolder, store: TribeBoardStore) throws -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var recovered = 0
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid == getpid() || !AtomicFile.isRunning(pid) else { continue }
            let directory = "\(folder.path)/\(name)"
            let ids = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }
            let committed = try committedCodes(of: ids, store: store)
            if !committed.isEmpty {
                let renderer = try QRCodePNGRenderer()
                for (id, code) in committed.sorted(by: { $0.key < $1.key }) {
                    try AtomicFile.write(try renderer.png(for: code), to: "\(folder.path)/\(QRCodeFiles.relativePath(for: id))")
                    recovered += 1
                }
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
        return recovered
    }

    /// The current code of each family whose code a repair set (and nothing changed since).
    private static func committedCodes(of ids: [String], store: TribeBoardStore) throws -> [String: String] {
        try store.writer.read { db in
            var codes: [String: String] = [:]
            for chunk in ids.chunked(500) {
                for row in try Row.fetchAll(db, sql: """
                    SELECT f.id, f.code FROM families f
                    WHERE f.id IN \(SQLPlaceholders.list(chunk.count))
                      AND EXISTS (SELECT 1 FROM code_repairs r WHERE r.family_id = f.id AND r.new_code = f.code)
                    """, arguments: StatementArguments(Array(chunk))) {
                    if let id = row.text("id"), let code = row.text("code") { codes[id] = code }
                }
            }
            return codes
        }
    }
}
