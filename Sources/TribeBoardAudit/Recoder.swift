import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardQR
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote

/// Gives one chosen family a new code: claimed first against a live remote, its QR PNG staged,
/// the store changed in one transaction (the same operation as the audit's repair, so resync
/// uploads the change and releases the old code's claim), then the PNG and the manifest line put
/// in place. Blocks (SQLite, files): run it on a `PipelineThread`.
package struct Recoder: Sendable {
    static let claimRounds = 3
    let request: RecodeRequest
    let logger: Logger

    package init(request: RecodeRequest, logger: Logger) {
        self.request = request
        self.logger = logger
    }

    package func run() async throws(RecodeError) -> RecodeReport {
        let store: TribeBoardStore?
        let family: NamedFamily
        do {
            // Read-only first: a mistyped --store is "no such file", never a new empty store.
            let reading = try TribeBoardStore.openReadOnly(at: request.storePath)
            guard let found = try reading.namedFamily(request.family) else {
                throw RecodeError.noSuchFamily(request.family, store: request.storePath)
            }
            family = found
            store = request.outputDirectory == nil ? nil : try TribeBoardStore.open(at: request.storePath)
        } catch let error as RecodeError {
            throw error
        } catch {
            throw .store(TribeBoardStore.classify(error, path: request.storePath))
        }
        let manifestPath = request.manifest ?? request.outputDirectory.map { OutputFolder(path: $0).manifestPath }
        let upload = Advice.resync(store: request.storePath, remote: request.adviceFlags).command
        var report = RecodeReport(store: request.storePath, familyId: family.id.rawValue, familyName: family.name, externalId: family.externalID,
                                  oldCode: request.display(family.code), manifest: manifestPath, uploadCommand: upload,
                                  warning: "the family's printed card (its old code and QR code) stops working "
                                    + "once `\(upload)` uploads the new code: "
                                      + "reprint it before that, once the new code is made")
        guard let outputDirectory = request.outputDirectory, let manifestPath, let store else {
            // A plan: the store still holds the old code, so a card printed now would show it.
            report.applyCommand = Advice.recode(familyID: family.id, store: request.storePath, remote: request.adviceFlags).command
            return report
        }
        let newCode = try await chooseAndClaim(family, store: store, claimed: &report.claimed)
        try apply(family, newCode: newCode, store: store, outputDirectory: outputDirectory, manifestPath: manifestPath)
        report.applied = true
        // From the store, which holds the new code (sheets takes `--family-id` from the store, not with `--manifest`).
        report.reprintCommand = Advice.reprint(store: request.storePath, familyID: family.id).command
        report.newCode = request.display(newCode)
        report.qrFile = "\(outputDirectory)/\(QRCodeFiles.relativePath(for: family.id))"
        logger.notice("family recoded", metadata: ["family": "\(family.id)", "output": "\(outputDirectory)"])
        return report
    }

    /// A free code, claimed for the family in CloudKit when the remote is live (a code another
    /// family claimed is replaced and claimed again, up to `claimRounds` times).
    private func chooseAndClaim(_ family: NamedFamily, store: TribeBoardStore, claimed: inout Bool) async throws(RecodeError) -> String {
        var taken: Set<String> = [family.code]
        do {
            for _ in 0..<Self.claimRounds {
                let code = try store.freeCode(avoiding: taken).value
                guard let client = request.client else { return code }
                let claim = try CodeClaim(code: code, familyID: family.id)
                let answer = try await CodeClaimer(client: client).claim([claim])
                switch answer.outcomes[claim.recordName] {
                case .claimed?:
                    try store.recordClaims([.init(familyID: family.id, code: code)])
                    claimed = true
                    return code
                case .heldBy?: taken.insert(code)
                case .failed(let error)?: throw RecodeError.claimNotConfirmed(reason: "\(error.serverErrorCode)")
                case nil: throw RecodeError.claimNotConfirmed(reason: answer.problem ?? "no answer for the claim")
                }
            }
        } catch let error as RecodeError {
            throw error
        } catch {
            throw RecodeError.classify(error)
        }
        throw .claimNotConfirmed(reason: "every code tried is claimed by another family")
    }

    /// The PNG and the manifest staged, the store changed, then both renamed into place: killed
    /// before the store change, nothing names the new code outside the staging names.
    private func apply(_ family: NamedFamily, newCode: String, store: TribeBoardStore, outputDirectory: String,
                       manifestPath: String) throws(RecodeError) {
        let folder = OutputFolder(path: outputDirectory)
        let qrPath = "\(outputDirectory)/\(QRCodeFiles.relativePath(for: family.id))"
        let stagedQR = "\(folder.qrDirectory)/.recode-\(family.id).png"
        let stagedManifest = RecodeManifest.stagingPath(for: manifestPath)
        do {
            _ = try folder.prepare()
            try AtomicFile.write(try QRCodePNGRenderer().png(for: newCode), to: stagedQR)
            let qrColumn = RecodeManifest.qrColumn(qrPath: qrPath, manifestPath: manifestPath, outputDirectory: outputDirectory)
            let row = RecodeManifest.Row(externalID: family.externalID ?? "", familyID: family.id.rawValue, familyName: family.name, code: newCode,
                                         qrFile: qrColumn)
            try AtomicFile.write(try RecodeManifest.updated(at: manifestPath, with: row), to: stagedManifest)
        } catch {
            unlink(stagedQR)
            unlink(stagedManifest)
            throw RecodeError.classify(error)
        }
        let outcome: CodeChangeOutcome?
        do {
            outcome = try store.changeCodes([CodeChange(familyID: family.id, expectedCode: family.code, newCode: newCode, keptBy: nil,
                                                        reason: "recode")]).first
        } catch {
            unlink(stagedQR)
            unlink(stagedManifest)
            throw .store(error)
        }
        guard outcome == .changed else {
            unlink(stagedQR)
            unlink(stagedManifest)
            throw .changedMeanwhile(familyID: family.id)
        }
        guard rename(stagedQR, qrPath) == 0 else {
            throw .filesNotInPlace(familyID: family.id, store: request.storePath,
                                   cause: FileSystemError("rename into", path: qrPath))
        }
        guard rename(stagedManifest, manifestPath) == 0 else {
            throw .filesNotInPlace(familyID: family.id, store: request.storePath, cause: FileSystemError("rename into", path: manifestPath))
        }
    }
}
