import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardQR
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote

/// What `tribeboard recode FAMILY` asks for.
package struct RecodeRequest: Sendable {
    package var storePath: String
    /// Record id, code or external id, as `doctor family` takes them.
    package var family: String
    /// nil: a dry run (nothing is written).
    package var outputDirectory: String?
    /// The manifest to update (nil: `DIR/manifest.csv`, written if absent).
    package var manifest: String?
    /// A live remote: the new code is claimed there first (nil: resync claims it).
    package var client: CloudKitClient?
    /// The remote as flags for the printed upload command (the client's, or for a plan, which
    /// has none, the configuration the operator named): the upload must reach that remote.
    package var adviceFlags: [String] = []
    package var showCodes = false

    package init(storePath: String, family: String) {
        self.storePath = storePath
        self.family = family
    }

    func display(_ code: String) -> String { showCodes ? code : FamilyCode.mask(code) }
}

package enum RecodeError: Error, LocalizedError {
    case noSuchFamily(String, store: String)
    case store(StoreError)
    case output(FileSystemError)
    case qrCode(QRCodeError)
    case codeGeneration(CodeGenerationError)
    case remote(CloudKitError)
    case claim(CodeClaimError)
    /// CloudKit refused the new code's claim, left it unanswered, or every code tried was taken.
    case claimNotConfirmed(reason: String)
    /// The family's code changed (or the new code was taken) between the read and the change.
    case changedMeanwhile(familyID: FamilyID)
    /// The store holds the new code but the QR code or the manifest is not in place.
    case filesNotInPlace(familyID: FamilyID, store: String, cause: FileSystemError)

    package var errorDescription: String? {
        switch self {
        case .noSuchFamily(_, let store):
            return "no family with this record id, code or external id in the store "
                + "(find it by name with `\(Advice.findFamily(store: store).command)`)"
        case .store(let error): return "nothing changed: \(error.localizedDescription)"
        case .output(let error): return "nothing changed: \(error.localizedDescription)"
        case .qrCode(let error): return "nothing changed: cannot make the QR code: \(error.localizedDescription)"
        case .codeGeneration(let error): return "nothing changed: \(error.localizedDescription)"
        case .remote(let error): return "nothing changed: cannot claim the new code in CloudKit: \(error.localizedDescription)"
        case .claim(let error): return "nothing changed: \(error.localizedDescription)"
        case .claimNotConfirmed(let reason): return "nothing changed: the new code could not be claimed in CloudKit (\(reason)); run recode again"
        case .changedMeanwhile(let id): return "nothing changed: family \(id) changed while recode ran (another repair or recode?); run recode again"
        case .filesNotInPlace(let id, let store, let cause):
            return "the store gives family \(id) its new code, but its files are not all in place (\(cause.localizedDescription)): "
                + "print its card from the store with `\(Advice.reprint(store: store, familyID: id).command)`"
        }
    }
}

/// The outcome of one recode. JSON keys are a stable interface.
package struct RecodeReport: Encodable, Sendable {
    package var command = "recode"
    package var store: String
    package var applied = false
    package var familyId: String
    package var familyName: String
    package var externalId: String?
    /// Masked unless `--show-codes`.
    package var oldCode: String
    package var newCode: String?
    /// The new code was claimed in CloudKit before the store changed (live remote only).
    package var claimed = false
    package var qrFile: String?
    package var manifest: String?
    /// The command that prints the family's new card: once applied (a plan's store still holds
    /// the old code, which a card printed then would show).
    package var reprintCommand: String?
    /// A plan's command that makes the new code (`--apply --out DIR`), with this run's store and remote.
    package var applyCommand: String?
    /// The resync that uploads the new code, with this run's store and remote flags.
    package var uploadCommand: String
    package var warning: String
}
