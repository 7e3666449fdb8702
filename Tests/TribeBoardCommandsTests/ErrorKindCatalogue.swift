import Foundation
import Testing
@testable import TribeBoardCommands
import TribeBoardAudit
import TribeBoardCases
import TribeBoardCSV
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardMigrate
import TribeBoardProvisioning
import TribeBoardQR
import TribeBoardResync
import TribeBoardSheets
import TribeBoardStore
import TribeBoardSupport
import TribeBoardTestSupport

/// One error of every case the error document maps, to check the table of docs/errors.md against.
enum ErrorKindCatalogue {
    struct Strange: Error {}

    static var samples: [any Error] {
        let store: [any Error] = [
            StoreError.cannotOpen(path: "s", reason: "r"), StoreError.notAStore(path: "s", reason: "r"),
            StoreError.newerSchema(path: "s", unknownMigrations: ["m"]), StoreError.writeFailed(reason: "r"), StoreError.readFailed(reason: "r"),
            StoreError.busy(path: "s", holders: []), StoreError.notAFile(path: "s", kind: .folder),
            StoreError.unreadableValue(table: "families", rowID: "F1", column: "name", found: "a blob of 1 byte"),
        ]
        let csv: [any Error] = [
            CSVImportError.cannotOpen(path: "p", reason: "r"), CSVImportError.invalidUTF8(line: 2), CSVImportError.unterminatedQuote(line: 2),
            CSVImportError.empty, CSVImportError.missingColumnInHeader("family_name", header: ["a"], delimiter: "comma"), CSVImportError.utf16,
            CSVImportError.duplicateColumn("code"), CSVImportError.unreadable(reason: "r"), malformedHeader,
            CSVImportError.workingCopy(folder: "/tmp/", reason: "No such file or directory"),
            CSVImportError.utf32, CSVImportError.tooLarge(path: "p"),
            CSVImportError.headerMapping(.headerNotInFile(header: "Nom", headers: ["Famille"])),
        ]
        let cloudKit: [any Error] = [
            CloudKitError.network(reason: "r"), CloudKitError.service(code: .authenticationFailed, httpStatus: 401, reason: "r", retryAfter: nil),
            CloudKitError.unexpectedResponse(httpStatus: 502, detail: "d"), CloudKitError.outOfTime,
            CloudKitError.schema(.missingType("Family"), reason: "r"), CloudKitError.schema(.notQueryable(field: "code", recordType: nil), reason: "r"),
            CloudKitError.schema(.notDeployed, reason: "r"), CloudKitError.schema(.notIndexable(recordType: "Family"), reason: "r"),
            CloudKitError.schema(.missingField(field: "code", recordType: "Family"), reason: "r"), CloudKitError.responseTooLarge(limit: 1 << 26),
            CloudKitConfigurationError.missing("key id"), CloudKitConfigurationError.invalid(setting: "s", value: "v", expected: "e"),
            CloudKitConfigurationError.keyFileUnreadable(path: "k", reason: "r"), CloudKitConfigurationError.keyFilePermissions(path: "k", mode: 0o644),
            CloudKitConfigurationError.invalidKey(reason: "r"), CloudKitConfigurationError.configFile(path: "c", line: 1, reason: "r"),
        ]
        let files: [any Error] = [
            SyncLock.Failure.held(byPID: 1), SyncLock.Failure.cannotOpen(path: "l", reason: "r"),
            SnapshotError.cannotOpen(path: "p", reason: "r"), SnapshotError.readFailed(path: "p", reason: "r"), SnapshotError.parserUnavailable,
            SnapshotError.lineTooLong(path: "p", line: 1), SnapshotError.tooManyLines(path: "p"), SnapshotError.notASnapshot(path: "p", line: 9),
            FileSystemError("write", path: "p", reason: "r"),
            QRCodeError.encodingFailed(reason: "r"), QRCodeError.pngEncodingFailed(reason: "r"), QRCodeError.invalidScale(0),
        ]
        let commands: [any Error] = [
            CommandError.remoteNeeded(by: .resync), CommandError.sourceIsDestination(container: "c"), CommandError.notSetAside(["r"], store: "s"), CommandError.noSuchFamily(["r"], store: "s"),
            AuditError.export(FileSystemError("write", path: "p", reason: "r")),
            AuditError.repair(.output(FileSystemError("write", path: "p", reason: "r"))),
            AuditError.repair(.incomplete(.qrCode(.encodingFailed(reason: "r")))), AuditError.scanStopped(reason: "r"),
            RecodeError.noSuchFamily("q", store: "s"), RecodeError.claimNotConfirmed(reason: "r"), RecodeError.changedMeanwhile(familyID: "f"),
            RecodeError.filesNotInPlace(familyID: "f", store: "s", cause: FileSystemError("rename into", path: "p")),
            CaseError.noSuchFamily("q", store: "s"), CaseError.hasMembers(familyID: "f", count: 1, store: "s"), CaseError.sameFamily("f"),
            CaseError.keptFamilyLeaving("f"), CaseError.notInCloudKit("f"), CaseError.claim(.hashUnavailable),
            CaseError.list(FileSystemError("open", path: "p", reason: "r")), CaseError.listTooLarge(path: "p", limit: 1),
            MigrationError.codeGeneration(.noFreeCode(candidatesTried: 100)),
            MigrationInterruption(progress: nil, applying: true), ClaimBackfillInterruption(applying: true),
            MigrationError.copyName(.hashUnavailable(legacyName: "L1")),
            MigrationError.codeGeneration(.randomSourceUnavailable(attempts: 3, reason: "r")), ProvisionError.configuration("r"),
            SheetError.cannotCreate(path: "p", reason: "r"), SheetError.cairo("r"),
            SheetError.invalidCode(familyId: "f", familyName: "n", reason: "r"), SheetError.nothingSelected,
            SheetError.textDoesNotFit(TextCuts(), layout: .cards),
            SheetError.outdatedManifest(ManifestCodeCheck(manifest: "m", store: "s", storeWins: false)),
            SheetError.unmatched(familyIds: ["f"], codes: 0),
            SheetError.unclaimed(familyIds: ["f"], count: 1, store: "s"),
            SheetError.verifyUnavailable(tool: "zbarimg", package: "zbar-tools"), SheetError.verify(reason: "r"),
            SheetError.verifyFailed(SheetVerifier.Report(pdf: "p")),
            SheetTemplateError.cannotOpen(path: "t", reason: "r"), SheetTemplateError.syntax(line: 1, "r"),
            SheetTemplateError.unknownPlaceholders(["{x}"]), SheetTemplateError.unknownSetting(line: 1, "s"),
            SheetTemplateError.logo(path: "l", reason: "r"), SheetTemplateError.logoMissing(path: "l"), SheetTemplateError.notUTF8(path: "t", line: 1),
            SheetTemplateError.tooLarge(path: "t", bytes: 70_000),
            SheetTemplateError.several([.syntax(line: 2, column: 3, "r"), .unknownSetting(line: 4, "s")]),
            InvitationReadError.manifest(path: "m", reason: "r"), InvitationReadError.manifestMissing(path: "m", reason: "r"),
            Strange(),
        ]
        return store + csv + cloudKit + files + commands + usage
    }

    /// ArgumentParser's own errors, as `start()` meets them, and one of a shape no kind names.
    static var usage: [any Error] {
        let refused = [
            ["provision", "in.csv", "--no-such-option"], ["provision", "in.csv", "--out"], ["provision"],
            ["provision", "in.csv", "--code-length", "abc"], ["resync", "extra"], ["provision", "in.csv", "--code-length", "5"],
        ].map { UsageErrorTests.refusal($0) }
        return (refused as [any Error]) + [UsageError(Strange(), command: TribeBoardCommand.self), UnknownSubcommand(name: "frobnicate", known: ["audit"])]
    }

    /// A real one: the type's initialiser is the CSV module's own.
    static var malformedHeader: any Error {
        do {
            let folder = try TemporaryDirectory("kind-catalogue")
            _ = try CSVPreScan.scan(path: try folder.write("input.csv", "\"family_name\" ,external_id\nSmith,E1\n"))
            return Strange()
        } catch {
            return error
        }
    }
}
