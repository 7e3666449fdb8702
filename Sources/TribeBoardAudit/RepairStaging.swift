import Foundation
import TribeBoardQR
import TribeBoardStore
import TribeBoardSupport
import TribeBoardDomain

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

    /// The families this run may commit, written before the commit: the PNGs are renamed out of
    /// the folder one by one, and a run killed between the renames and `repairs.csv` must still
    /// be finished by the next one.
    func record(_ familyIDs: [String]) throws(FileSystemError) {
        try AtomicFile.write(Array(familyIDs.map { $0 + "\n" }.joined().utf8), to: "\(path)/\(Self.familiesName)")
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    static let familiesName = "families.txt"

    /// What a killed run committed and had not finished: its families' QR codes are written
    /// afresh from the store (a staged file may hold a code that was never committed) and their
    /// rows go into `repairs.csv`; `remove()` once that is written.
    struct Recovery {
        var changes: [CodeRepairReport.Change] = []
        var folders: [String] = []

        func remove() { folders.forEach { try? FileManager.default.removeItem(atPath: $0) } }
    }

    /// Finishes what killed runs left: each family named in a dead run's staging folder (its
    /// list, or a PNG still there) whose current code is one a repair committed gets its QR code.
    static func recover(in folder: OutputFolder, store: TribeBoardStore) throws -> Recovery {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var recovery = Recovery()
        for name in names.sorted() where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid == getpid() || !AtomicFile.isRunning(pid) else { continue }
            let directory = "\(folder.path)/\(name)"
            let listed = ((try? String(contentsOfFile: "\(directory)/\(familiesName)", encoding: .utf8)) ?? "")
                .split(separator: "\n").map(String.init)
            let staged = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }
            let committed = try committedChanges(of: Array(Set(listed + staged)).sorted(), store: store)
            if !committed.isEmpty {
                let renderer = try QRCodePNGRenderer()
                for change in committed {
                    guard let code = change.assignedCode else { continue }
                    let file = QRCodeFiles.relativePath(for: FamilyID(rawValue: change.familyId))
                    try AtomicFile.write(try renderer.png(for: code), to: "\(folder.path)/\(file)")
                }
            }
            recovery.changes += committed.filter { change in !recovery.changes.contains { $0.familyId == change.familyId } }
            recovery.folders.append(directory)
        }
        return recovery
    }

    /// Each family whose current code a repair set (and nothing changed since), with that
    /// repair's row of `code_repairs` (the latest, if it was repaired more than once).
    private static func committedChanges(of ids: [String], store: TribeBoardStore) throws -> [CodeRepairReport.Change] {
        try store.codeChangesInPlace(of: ids.map(FamilyID.init(rawValue:))).map { recorded in
            var change = CodeRepairReport.Change(familyId: recorded.familyID.rawValue, familyName: recorded.familyName,
                                                 oldCode: recorded.oldCode, keptBy: recorded.keptBy?.rawValue ?? "",
                                                 reason: recorded.reason, expectedCode: recorded.oldCode)
            change.assignedCode = recorded.code
            change.qrFile = QRCodeFiles.relativePath(for: recorded.familyID)
            return change
        }
    }
}
