import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport
@testable import TribeBoardCommands
import TribeBoardAudit
import TribeBoardCloudKit
import TribeBoardDomain
@testable import TribeBoardMigrate
@testable import TribeBoardProvisioning
import TribeBoardQR
@testable import TribeBoardResync
import TribeBoardSupport

/// A report that stops on CloudKit names the error as the error document would (`stopKind`), and
/// the errors that used to be only words (an audit repair, a migration's code or QR code) have
/// kinds and fields of their own.
struct StopKindTests {
    static let throttled = CloudKitError.gaveUp(attempts: 5, last: .service(code: .throttled, httpStatus: 503, reason: "slow", retryAfter: 3))
    static let schema = CloudKitError.schema(.notQueryable(field: "code", recordType: "Family"), reason: "Field 'code' is not marked queryable")
    static let network = CloudKitError.network(reason: "connection refused")

    /// The report's kind is the error document's kind for the same error, whatever the error.
    @Test func everyCloudKitErrorHasOneKindInReportsAndDocuments() {
        let errors = ErrorKindCatalogue.samples.compactMap { $0 as? CloudKitError } + [Self.throttled, Self.schema]
        #expect(errors.count >= 9)
        for error in errors { #expect(error.kind == ErrorDetail.of(error).kind.rawValue, "\(error)") }
    }

    @Test func resyncNamesWhatStoppedIt() throws {
        let cases: [(ResyncReport.Stop?, String?)] = [
            (.remote(Self.throttled), "cloudkit.service"), (.remote(Self.schema), "cloudkit.schema.notQueryable"),
            (.remote(Self.network), "cloudkit.network"), (ResyncReport.Stop(.outOfTime), "cloudkit.outOfTime"),
            (.unmatchedAnswer("a record twice"), "resync.unmatchedAnswer"), (nil, nil),
        ]
        for (stop, kind) in cases {
            var report = ResyncReport()
            report.stop = stop
            let decoded = try Decoded.decode(ResyncReportMirror.self, from: report)
            #expect(decoded.stopKind == kind, "\(String(describing: stop))")
            #expect((decoded.stoppedBy == nil) == (kind == nil), "the words and the kind go together")
        }
    }

    @Test func provisionNamesWhatStoppedTheCheckAndTheUpload() throws {
        let report = ExitStatusMappingTests.report { $0.remote = .init(failure: Self.schema) }
        let remote = try #require(try Decoded.decode(ProvisionReportMirror.self, from: report).remote)
        #expect(remote.stopKind == "cloudkit.schema.notQueryable" && remote.errorKind == "configuration")
        let reachable = try #require(try Decoded.decode(ProvisionReportMirror.self, from: ExitStatusMappingTests.report { $0.remote = .init(failure: nil) }).remote)
        #expect(reachable.stopKind == nil && reachable.uploadStopKind == nil)
    }

    @Test func auditRepairsSayWhetherTheStoreChangedAndWhy() throws {
        let notApplied = try ErrorDocumentTests.json(AuditError.repair(.output(FileSystemError("create", path: "out/qr", reason: "read-only"))),
                                                     status: .ioError)
        #expect(notApplied.kind == "audit.repairNotApplied" && notApplied.cause == "file.failed")
        #expect(notApplied.path == "out/qr" && notApplied.operation == "create")
        let partly = try ErrorDocumentTests.json(AuditError.repair(.incomplete(.store(.busy(path: "s.sqlite", holders: [])))), status: .ioError)
        #expect(partly.kind == "audit.repairIncomplete" && partly.cause == "store.busy")
        #expect(partly.path == "s.sqlite")
        let noCode = try ErrorDocumentTests.json(AuditError.repair(.codeGeneration(.noFreeCode(candidatesTried: 64))), status: .ioError)
        #expect(noCode.kind == "audit.repairNotApplied" && noCode.cause == "code.noFreeCode")
        #expect(noCode.attempts == 64)
        // The words still say which: people read stderr.
        #expect(AuditError.repair(.incomplete(.qrCode(.encodingFailed(reason: "too long")))).localizedDescription
                .hasPrefix("repair applied to the store, but not every file is in place"))
        #expect(try ErrorDocumentTests.json(AuditError.scanStopped(reason: "cancelled"), status: .ioError).kind == "audit.scanStopped")
    }

    @Test func aMigrationStoppedByItsCodesReportsTheCause() throws {
        let noCode = try ErrorDocumentTests.json(MigrationError.codeGeneration(.noFreeCode(candidatesTried: 100)), status: .ioError)
        #expect(noCode.kind == "code.noFreeCode" && noCode.attempts == 100)
        let qr = try ErrorDocumentTests.json(MigrationError.qrCode(.pngEncodingFailed(reason: "disk")), status: .ioError)
        #expect(qr.kind == "qr.pngEncodingFailed")
        #expect(MigrationError.classify(QRCodeError.invalidScale(0)).localizedDescription.hasPrefix("migration stopped: cannot make a QR code"))
    }
}
