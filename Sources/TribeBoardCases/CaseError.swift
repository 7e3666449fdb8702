import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote
import TribeBoardStore
import TribeBoardSupport

/// Why `remove`, `merge` or `adopt` stopped. Where the store or CloudKit changed before the
/// stop, the message says so: a rerun finishes (every step is idempotent).
package enum CaseError: Error, LocalizedError {
    case noSuchFamily(String, store: String)
    /// Members other than the parent admin: `--force`, or `merge` them into the family that stays.
    case hasMembers(familyID: FamilyID, count: Int, store: String)
    case sameFamily(String)
    /// A merge into a family that is itself being removed or merged.
    case keptFamilyLeaving(String)
    /// The family went up to CloudKit (or holds a claim there) and no remote is configured.
    case remoteNeeded(familyID: String)
    /// `adopt`: CloudKit holds no record of the family (nothing to adopt).
    case notInCloudKit(String)
    case store(StoreError)
    case remote(CloudKitError)
    case claim(CodeClaimError)
    /// The `--from-file` list cannot be read.
    case list(FileSystemError)
    /// The `--from-file` list is larger than a list of families can be.
    case listTooLarge(path: String, limit: Int)

    package var errorDescription: String? {
        switch self {
        case .noSuchFamily(_, let store):
            return "no family of the store has this record id, code, external id or name "
                + "(find it with `\(Advice.findFamily(store: store).command)`)"
        case .hasMembers(let id, let count, let store):
            return "family \(id) has \(count) member(s) besides its parent admin: move them with "
                + "`\(Advice.merge(store: store, duplicate: id, into: "KEPT_ID").command)`, or remove them with it (--force)"
        case .sameFamily(let id): return "family \(id) cannot be merged into itself"
        case .keptFamilyLeaving(let id): return "family \(id), which would be kept, is being removed or merged itself: finish that first"
        case .remoteNeeded(let id):
            return "family \(id) went up to CloudKit (or holds a code claim there): configure the remote "
                + "(--config or --key-id/--key-file) so that it leaves CloudKit too"
        case .notInCloudKit(let id):
            return "CloudKit holds no Family record \(id): nothing to adopt"
        case .store(let error): return error.localizedDescription
        case .remote(let error):
            return "CloudKit: \(error.localizedDescription); run the same command again to finish"
        case .claim(let error): return error.localizedDescription
        case .list(let error):
            return "cannot read the list of families: \(error.localizedDescription)"
        case .listTooLarge(let path, let limit):
            return
                "\(path) is larger than \(limit) bytes: a list of family ids, codes or names is far smaller"
        }
    }
}

extension CaseError {
    /// What stopped a case while it read the store: its own errors as they are, the store's as
    /// `store`, anything else as a failed read.
    static func reading(_ error: any Error) -> CaseError {
        switch error {
        case let error as CaseError: return error
        case let error as StoreError: return .store(error)
        default: return .store(.readFailed(reason: "\(error)"))
        }
    }
}
