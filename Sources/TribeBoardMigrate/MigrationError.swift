import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardQR
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote

/// What stops a migration run (the checkpoint keeps what was done).
package enum MigrationError: Error, LocalizedError {
    case store(StoreError)
    case remote(CloudKitError)
    case output(FileSystemError)
    case codeGeneration(CodeGenerationError)
    case qrCode(QRCodeError)
    /// The copies' names cannot be derived: nothing is planned or copied.
    case copyName(LegacyCopyNameError)

    package var errorDescription: String? {
        switch self {
        // A store this toolkit cannot use: running it again changes nothing until the cause is
        // fixed.
        case .store(.newerSchema(let path, let unknown)):
            return "migration stopped before it began: this store is newer than this toolkit (\(path) has migrations "
                + "\(unknown.joined(separator: ", ")) it does not know); upgrade TribeBoard Ops, then run the migration again"
        case .store(let error) where error.isAboutTheFile:
            return "migration stopped: \(error.localizedDescription)"
        case .store(let error): return "migration stopped: \(error.localizedDescription); run it again to resume from the checkpoint"
        case .remote(let error): return "migration stopped: \(error.localizedDescription); run it again to resume from the checkpoint"
        case .output(let error): return "migration stopped: \(error.localizedDescription)"
        case .codeGeneration(let error): return "migration stopped: \(error.localizedDescription)"
        case .qrCode(let error):
            return "migration stopped: cannot make a QR code: \(error.localizedDescription)"
        case .copyName(let error):
            return "migration stopped before it began: \(error.localizedDescription)"
        }
    }

    static func classify(_ error: any Error) -> MigrationError {
        switch error {
        case let error as MigrationError: return error
        case let error as CloudKitError: return .remote(error)
        case let error as StoreError: return .store(error)
        case let error as FileSystemError: return .output(error)
        case let error as QRCodeError: return .qrCode(error)
        case let error as LegacyCopyNameError: return .copyName(error)
        case let error as CodeGenerationError: return .codeGeneration(error)
        // Whatever else a write threw: the store's own classification (busy, a file in the way,
        // GRDB's row dump left out), not a description made here.
        default: return .store(StoreError.writing(error, store: nil))
        }
    }
}

extension StoreError {
    /// The store file itself is unusable (not a store, a newer one, a folder, unreadable values):
    /// a rerun meets it again, so no "run it again" is offered.
    var isAboutTheFile: Bool {
        switch self {
        case .cannotOpen, .notAStore, .newerSchema, .notAFile, .unreadableValue: return true
        case .writeFailed, .readFailed, .busy: return false
        }
    }
}
