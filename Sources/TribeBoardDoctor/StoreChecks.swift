import Foundation
import TribeBoardStore
import TribeBoardSupport

/// What the store checks concluded, for the fallback chain and the creation checks.
enum StoreState {
    /// No file; `folderWritable` tells whether provision could create one.
    case missing(folderWritable: Bool)
    case unusable(reason: String)
    case readOnly(ReadOnlyStore, reason: String)
    case writable(ReadOnlyStore)

    var store: ReadOnlyStore? {
        switch self {
        case .readOnly(let store, _), .writable(let store): return store
        case .missing, .unusable: return nil
        }
    }
}

/// Section 3: the store, opened read-only and never created, migrated or checkpointed.
struct StoreChecks {
    /// Below this SQLite cannot be trusted to finish a write (a batch, a checkpoint).
    static let failureFreeBytes: UInt64 = 64 << 20
    static let warningFreeBytes: UInt64 = 1 << 30

    let path: String
    let quickIntegrity: Bool

    var folder: String { URL(fileURLWithPath: path).deletingLastPathComponent().path }

    func run() -> (checks: [DoctorCheck], state: StoreState) {
        guard FileManager.default.fileExists(atPath: path) else {
            let folderWritable = access(folder, W_OK) == 0
            let check = DoctorCheck(
                .storeFile, .store, .failure, checked: "Store file",
                found: "\(path) does not exist",
                action: "point --store (or TRIBEBOARD_STORE) at the store; "
                    + "`\(TribeBoardStore.createCommand(path))` creates an empty one"
                    + (folderWritable ? "" : " (the folder \(folder) must exist and be writable)"))
            return ([check, diskSpaceCheck()], .missing(folderWritable: folderWritable))
        }
        guard access(path, R_OK) == 0 else {
            let check = DoctorCheck(
                .storeFile, .store, .failure, checked: "Store file",
                found: "\(path) cannot be read by this user",
                action:
                    "run doctor as the store's owner, or fix its permissions (chmod 600, owned by the toolkit's user)"
            )
            return (
                [check, permissionsCheck(), diskSpaceCheck()],
                .unusable(reason: "the store cannot be read")
            )
        }
        let store: ReadOnlyStore
        do {
            store = try TribeBoardStore.openReadOnly(at: path)
        } catch {
            let check = DoctorCheck(
                .storeOpen, .store, .failure, checked: "Opening the store (read-only)",
                found: error.localizedDescription,
                action: Self.advice(for: error, path: path))
            return (
                [check, permissionsCheck(), diskSpaceCheck()],
                .unusable(reason: error.localizedDescription)
            )
        }
        let writeProblem = StoreFiles.writeProblem(path: path)
        let fileCheck =
            writeProblem.map {
                DoctorCheck(
                    .storeFile, .store, .failure, checked: "Store file",
                    found: "\(path) cannot be written: \($0)",
                    action:
                        "run the toolkit as the store's owner, or make the store, its -wal and -shm and its folder writable by that user"
                )
            }
            ?? DoctorCheck(
                .storeFile, .store, .ok, checked: "Store file",
                found: "\(path) opens for reading and writing")
        let integrity = integrityCheck(store)
        let checks = [
            fileCheck, integrity, migrationsCheck(store), journalCheck(store), permissionsCheck(),
            diskSpaceCheck()
        ]
        if integrity.status == .failure {
            return (checks, .unusable(reason: "the store is damaged"))
        }
        return (checks, writeProblem.map { .readOnly(store, reason: $0) } ?? .writable(store))
    }

    static func advice(for error: StoreError, path: String) -> String {
        switch error {
        case .newerSchema: return "upgrade TribeBoard Ops to the version that wrote this store"
        case .notAStore:
            return "restore the store from a backup, or move this file aside; then `\(TribeBoardStore.createCommand(path))` creates an empty one"
        default: return "check the path and the file's permissions"
        }
    }

    private func integrityCheck(_ store: ReadOnlyStore) -> DoctorCheck {
        let pragma = quickIntegrity ? "quick_check" : "integrity_check"
        let checked = "Integrity (PRAGMA \(pragma))"
        do {
            let problems = try store.integrityProblems(quick: quickIntegrity)
            if problems == ["ok"] {
                return DoctorCheck(.storeIntegrity, .store, .ok, checked: checked, found: "ok")
            }
            return DoctorCheck(
                .storeIntegrity, .store, .failure, checked: checked,
                found: problems.prefix(5).joined(separator: "; "),
                action:
                    "stop the toolkit's jobs, copy the store aside, and restore it from a backup (or `sqlite3 STORE .recover`)"
            )
        } catch {
            return DoctorCheck(
                .storeIntegrity, .store, .failure, checked: checked,
                found: error.readableDescription,
                action: "restore the store from a backup (or `sqlite3 STORE .recover`)")
        }
    }

    private func migrationsCheck(_ store: ReadOnlyStore) -> DoctorCheck {
        let checked = "Migrations"
        do {
            let (known, applied) = try store.migrationState()
            let pending = known.filter { !applied.contains($0) }
            guard !pending.isEmpty else {
                return DoctorCheck(
                    .storeMigrations, .store, .ok, checked: checked,
                    found: "current (\(known.last ?? "none"))")
            }
            return DoctorCheck(
                .storeMigrations, .store, .warning, checked: checked,
                found: "\(pending.count) pending: \(pending.joined(separator: ", "))",
                action:
                    "the next command that writes the store (provision, resync, recode…) applies them (back the store up first)"
            )
        } catch {
            return DoctorCheck(
                .storeMigrations, .store, .failure, checked: checked,
                found: "cannot read them: \(error.readableDescription)",
                action: "restore the store from a backup")
        }
    }

    private func journalCheck(_ store: ReadOnlyStore) -> DoctorCheck {
        let checked = "Journal mode"
        let mode = (try? store.journalMode()) ?? nil
        guard let mode else {
            return DoctorCheck(
                .storeJournalMode, .store, .warning, checked: checked, found: "cannot be read")
        }
        guard mode.lowercased() == "wal" else {
            return DoctorCheck(.storeJournalMode, .store, .warning, checked: checked,
                               found: "\(mode): readers and a writer block each other",
                               action: "the next command that writes the store (provision, resync, recode…) switches it to WAL")
        }
        return DoctorCheck(.storeJournalMode, .store, .ok, checked: checked, found: "wal")
    }

    /// The store holds family codes: nobody but its owner should read it (nor its WAL).
    private func permissionsCheck() -> DoctorCheck {
        let checked = "Permissions (the store holds family codes)"
        let files = [path, path + "-wal", path + "-shm"].filter {
            FileManager.default.fileExists(atPath: $0)
        }
        var open: [String] = []
        var modes: [String] = []
        for file in files {
            var info = stat()
            guard stat(file, &info) == 0 else { continue }
            let mode = info.st_mode & 0o777
            modes.append("\((file as NSString).lastPathComponent) \(String(mode, radix: 8))")
            if mode & 0o077 != 0 { open.append("\(file) (mode \(String(mode, radix: 8)))") }
        }
        guard open.isEmpty else {
            return DoctorCheck(
                .storePermissions, .store, .warning, checked: checked,
                found: "readable or writable by others: \(open.joined(separator: ", "))",
                action: "chmod 600 \(files.joined(separator: " "))")
        }
        return DoctorCheck(
            .storePermissions, .store, .ok, checked: checked,
            found: modes.joined(separator: ", ").ifEmpty("no files"))
    }

    private func diskSpaceCheck() -> DoctorCheck {
        let checked = "Free disk space"
        var info = statvfs()
        let existing = FileManager.default.fileExists(atPath: folder) ? folder : "/"
        guard statvfs(existing, &info) == 0 else {
            return DoctorCheck(
                .storeDiskSpace, .store, .warning, checked: checked,
                found: "cannot be read for \(existing): \(String(cString: strerror(errno)))")
        }
        let (product, overflow) = UInt64(info.f_bavail).multipliedReportingOverflow(
            by: UInt64(info.f_frsize))
        let free = overflow ? UInt64.max : product
        let found = "\(Self.megabytes(free)) available in \(existing)"
        if free < Self.failureFreeBytes {
            return DoctorCheck(
                .storeDiskSpace, .store, .failure, checked: checked,
                found: found + ": writes will fail",
                action:
                    "free space on that file system (SQLite needs room for the WAL and checkpoints)"
            )
        }
        if free < Self.warningFreeBytes {
            return DoctorCheck(
                .storeDiskSpace, .store, .warning, checked: checked, found: found,
                action:
                    "free space before a bulk provision (about 1 KB per family, plus its QR code)")
        }
        return DoctorCheck(.storeDiskSpace, .store, .ok, checked: checked, found: found)
    }

    static func megabytes(_ bytes: UInt64) -> String {
        bytes >= 10 << 30 ? "\(bytes >> 30) GB" : "\(bytes >> 20) MB"
    }
}
