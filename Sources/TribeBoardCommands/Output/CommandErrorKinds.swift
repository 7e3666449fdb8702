import Foundation
import TribeBoardAudit
import TribeBoardCases
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardMigrate
import TribeBoardProvisioning
import TribeBoardSheets

// The `kind` of the errors the pipelines throw. A wrapper that carries a typed error (a store
// error inside an audit error) reports the inner one: the cause is what a script acts on, and the
// command is the one it ran.

/// The failures the commands themselves find before any pipeline runs.
enum CommandError: Error, LocalizedError, DocumentedError {
    /// A run that needs CloudKit and has no key configured.
    case remoteNeeded(by: RemoteNeed)
    case sourceIsDestination(container: String)
    /// `migrate container`'s source settings are unusable.
    case source(CloudKitConfigurationError)
    /// `resync --release` named records that are not set aside.
    case notSetAside([String], store: String)
    /// `resync --reupload` named ids of no family in the store.
    case noSuchFamily([String], store: String)

    enum RemoteNeed {
        case resync, migrate, exportRemote, sync
    }

    private static let keyOptions =
        "--ck-config FILE (or TRIBEBOARD_CK_CONFIG), or --key-id and --key-file "
        + "(or TRIBEBOARD_CK_KEY_ID and TRIBEBOARD_CK_KEY_FILE)"

    var errorDescription: String? {
        switch self {
        case .remoteNeeded(.resync):
            return "no remote is configured: resync needs \(Self.keyOptions)"
        case .remoteNeeded(.migrate):
            return "no remote is configured: migrate needs \(Self.keyOptions)"
        case .remoteNeeded(.exportRemote):
            return "--export-remote needs a configured remote: \(Self.keyOptions)"
        case .remoteNeeded(.sync): return "--sync needs a configured remote: \(Self.keyOptions)"
        case .sourceIsDestination(let container):
            return "the source is the destination (\(container)); to move legacy types within one container use `migrate legacy-types`"
        case .source(let error): return "the source: \(error.localizedDescription)"
        case .notSetAside(let ids, let store):
            return "not quarantined or in conflict, nothing to release: \(ids.joined(separator: ", ")) "
                + "(see `\(Advice.resyncList(store: store).command)`)"
        case .noSuchFamily(let ids, let store):
            return "no family with this id in the store, nothing to upload again: \(ids.joined(separator: ", ")) "
                + "(find it by name or code with `\(Advice.findFamily(store: store).command)`)"
        }
    }

    var errorDetail: ErrorDetail {
        switch self {
        case .remoteNeeded: return ErrorDetail(kind: .remoteNotConfigured)
        case .sourceIsDestination: return ErrorDetail(kind: .migrateSourceIsDestination)
        case .source(let error): return error.errorDetail
        case .notSetAside(let ids, _):
            return ErrorDetail(kind: .resyncNotSetAside).with { $0.recordIds = ids }
        case .noSuchFamily(let ids, _):
            return ErrorDetail(kind: .resyncNoSuchFamily).with { $0.recordIds = ids }
        }
    }
}

extension AuditError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .store(let error): return error.errorDetail
        case .snapshot(let error): return error.errorDetail
        case .remote(let error): return error.errorDetail
        case .export(let error):
            return ErrorDetail(kind: .auditExportFailed).with { $0.path = error.path }
        // Whether the store changed is what a script acts on; the cause's fields say why.
        case .repair(.incomplete(let cause)):
            return Self.repairDetail(.auditRepairIncomplete, cause: cause.cause)
        case .repair(let error):
            return Self.repairDetail(.auditRepairNotApplied, cause: error.cause)
        case .scanStopped: return ErrorDetail(kind: .auditScanStopped)
        }
    }

    private static func repairDetail(_ kind: ErrorKind, cause: any Error) -> ErrorDetail {
        var detail = ErrorDetail.of(cause)
        detail.cause = detail.kind
        detail.kind = kind
        return detail
    }
}

extension RecodeError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .noSuchFamily: return ErrorDetail(kind: .recodeNoSuchFamily)
        case .store(let error): return error.errorDetail
        case .output(let error): return error.errorDetail
        case .qrCode(let error): return error.errorDetail
        case .codeGeneration(let error): return error.errorDetail
        case .remote(let error): return error.errorDetail
        case .claim, .claimNotConfirmed: return ErrorDetail(kind: .recodeClaimNotConfirmed)
        case .changedMeanwhile(let id):
            return ErrorDetail(kind: .recodeChangedMeanwhile).with { $0.recordId = id.rawValue }
        case .filesNotInPlace(let id, _, let cause):
            return ErrorDetail(kind: .recodeFilesNotInPlace).with {
                $0.recordId = id.rawValue; $0.path = cause.path
            }
        }
    }
}

extension MigrationError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .store(let error): return error.errorDetail
        case .remote(let error): return error.errorDetail
        case .output(let error): return error.errorDetail
        case .codeGeneration(let error): return error.errorDetail
        case .qrCode(let error): return error.errorDetail
        case .copyName(.hashUnavailable(let name)):
            return ErrorDetail(kind: .migrateCopyNameUnavailable).with { $0.recordId = name }
        }
    }
}

extension MigrationInterruption: DocumentedError {
    // The phase it stopped in, and how far that phase was; whether anything was written is in the
    // message.
    var errorDetail: ErrorDetail {
        ErrorDetail(kind: .migrateInterrupted).with {
            $0.operation = progress?.phase.rawValue
            $0.count = progress?.processed
        }
    }
}

extension ClaimBackfillInterruption: DocumentedError {
    var errorDetail: ErrorDetail {
        ErrorDetail(kind: .migrateInterrupted).with { $0.operation = "claims" }
    }
}

extension ProvisionError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .input(let error): return error.errorDetail
        case .store(let error): return error.errorDetail
        case .output(let error): return error.errorDetail
        case .configuration: return ErrorDetail(kind: .provisionConfiguration)
        }
    }
}

extension SheetError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .template(let error): return error.errorDetail
        case .input(let error): return error.errorDetail
        case .cannotCreate(let path, _):
            return ErrorDetail(kind: .sheetsCannotCreate).with { $0.path = path }
        case .write(let error): return error.errorDetail
        case .cairo: return ErrorDetail(kind: .sheetsCairo)
        case .qr(let error): return error.errorDetail
        // The family's record id, not its code: the code is what is wrong, and it is a secret.
        case .invalidCode(let familyId, _, _):
            return ErrorDetail(kind: .sheetsInvalidCode).with { $0.recordId = familyId }
        case .nothingSelected: return ErrorDetail(kind: .sheetsNothingSelected)
        case .verifyUnavailable(let tool, _):
            return ErrorDetail(kind: .sheetsVerifyUnavailable).with { $0.path = tool }
        case .verify: return ErrorDetail(kind: .sheetsVerifyUnreadable)
        case .verifyFailed(let report):
            return ErrorDetail(kind: .sheetsVerifyFailed).with {
                $0.path = report.pdf
                $0.recordIds = report.failures.compactMap(\.familyId)
                $0.count = report.failed
            }
        case .unmatched(let ids, let codes):
            return ErrorDetail(kind: .sheetsUnmatched).with {
                $0.recordIds = ids.isEmpty ? nil : ids
                $0.count = ids.isEmpty ? codes : ids.count
            }
        case .unclaimed(let ids, let count, _):
            return ErrorDetail(kind: .sheetsUnclaimed).with {
                $0.recordIds = Array(ids.prefix(20))
                $0.count = count
            }
        case .outdatedManifest(let check):
            return ErrorDetail(kind: .sheetsOutdatedManifest).with {
                $0.path = check.manifest
                $0.recordIds = check.first.map(\.familyId)
                $0.count = check.outdated
            }
        case .textDoesNotFit(let cuts, _, _):
            return ErrorDetail(kind: .sheetsTextDoesNotFit).with {
                $0.recordIds = cuts.first.map(\.familyId)
                $0.fields = cuts.fields.keys.sorted()
                $0.count = cuts.invitations
            }
        }
    }
}

extension SheetTemplateError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .cannotOpen(let path, _):
            return ErrorDetail(kind: .templateCannotOpen).with { $0.path = path }
        case .syntax(let line, let column, _):
            return ErrorDetail(kind: .templateSyntax).with {
                $0.line = line
                $0.columnNumber = column
            }
        case .unknownPlaceholders(let names):
            return ErrorDetail(kind: .templateUnknownPlaceholders).with { $0.placeholders = names }
        case .unknownSetting(let line, let name):
            return ErrorDetail(kind: .templateUnknownSetting).with {
                $0.line = line
                $0.setting = name
            }
        case .logo(let path, _): return ErrorDetail(kind: .templateLogo).with { $0.path = path }
        case .logoMissing(let path):
            return ErrorDetail(kind: .templateLogo).with {
                $0.path = path
                $0.missingFile = true
            }
        case .notUTF8(let path, let line):
            return ErrorDetail(kind: .templateNotUTF8).with {
                $0.path = path
                $0.line = line
            }
        case .tooLarge(let path, let bytes):
            return ErrorDetail(kind: .templateTooLarge).with {
                $0.path = path
                $0.bytes = bytes
            }
        // Each problem as its own detail, message included: a script lists them as the text does.
        case .several(let problems):
            return ErrorDetail(kind: .templateSeveral).with {
                $0.count = problems.count
                $0.problems = problems.map { problem in
                    problem.errorDetail.with { $0.message = problem.localizedDescription }
                }
            }
        }
    }
}

extension InvitationReadError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .store(let error): return error.errorDetail
        case .importFile(let error): return error.errorDetail
        case .manifest(let path, _):
            return ErrorDetail(kind: .manifestUnreadable).with { $0.path = path }
        case .manifestMissing(let path, _):
            return ErrorDetail(kind: .manifestCannotOpen).with { $0.path = path }
        case .rendering(let error): return ErrorDetail.of(error)
        }
    }
}

extension CaseError: DocumentedError {
    var errorDetail: ErrorDetail {
        switch self {
        case .noSuchFamily: return ErrorDetail(kind: .caseNoSuchFamily)
        case .hasMembers(let id, _, _):
            return ErrorDetail(kind: .caseHasMembers).with { $0.recordId = id.rawValue }
        case .sameFamily(let id):
            return ErrorDetail(kind: .caseSameFamily).with { $0.recordId = id }
        case .keptFamilyLeaving(let id):
            return ErrorDetail(kind: .caseKeptFamilyLeaving).with { $0.recordId = id }
        case .remoteNeeded(let id):
            return ErrorDetail(kind: .remoteNotConfigured).with { $0.recordId = id }
        case .notInCloudKit(let id):
            return ErrorDetail(kind: .caseNotInCloudKit).with { $0.recordId = id }
        case .store(let error): return error.errorDetail
        case .remote(let error): return error.errorDetail
        case .claim: return ErrorDetail(kind: .caseClaimUnavailable)
        case .list(let error):
            return ErrorDetail(kind: .caseListUnreadable).with { $0.path = error.path }
        case .listTooLarge(let path, _):
            return ErrorDetail(kind: .caseListTooLarge).with { $0.path = path }
        }
    }
}
