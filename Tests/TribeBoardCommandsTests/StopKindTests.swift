import Foundation
import Testing
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

    static func json(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
    }

    /// The report's kind is the error document's kind for the same error, whatever the error.
    @Test func everyCloudKitErrorHasOneKindInReportsAndDocuments() {
        let errors = ErrorKindCatalogue.samples.compactMap { $0 as? CloudKitError } + [Self.throttled, Self.schema]
        #expect(errors.count >= 9)
        for error in errors { #expect(error.kind == ErrorDetail.of(error).kind, "\(error)") }
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
            let object = try Self.json(report)
            #expect(object["stopKind"] as? String == kind, "\(String(describing: stop))")
            #expect((object["stoppedBy"] == nil) == (kind == nil), "the words and the kind go together")
        }
    }

    @Test func provisionNamesWhatStoppedTheCheckAndTheUpload() throws {
        let report = ExitStatusMappingTests.report { $0.remote = .init(failure: Self.schema) }
        let remote = try #require(try Self.json(report)["remote"] as? [String: Any])
        #expect(remote["stopKind"] as? String == "cloudkit.schema.notQueryable" && remote["errorKind"] as? String == "configuration")
        let reachable = try #require(try Self.json(ExitStatusMappingTests.report { $0.remote = .init(failure: nil) })["remote"] as? [String: Any])
        #expect(reachable["stopKind"] == nil && reachable["uploadStopKind"] == nil)
    }

    @Test func auditRepairsSayWhetherTheStoreChangedAndWhy() throws {
        let notApplied = try ErrorDocumentTests.json(AuditError.repair(.output(FileSystemError("create", path: "out/qr", reason: "read-only"))),
                                                     status: .ioError)
        #expect(notApplied["kind"] as? String == "audit.repairNotApplied" && notApplied["cause"] as? String == "file.failed")
        #expect(notApplied["path"] as? String == "out/qr" && notApplied["operation"] as? String == "create")
        let partly = try ErrorDocumentTests.json(AuditError.repair(.incomplete(.store(.busy(path: "s.sqlite", holders: [])))), status: .ioError)
        #expect(partly["kind"] as? String == "audit.repairIncomplete" && partly["cause"] as? String == "store.busy")
        #expect(partly["path"] as? String == "s.sqlite")
        let noCode = try ErrorDocumentTests.json(AuditError.repair(.codeGeneration(.noFreeCode(candidatesTried: 64))), status: .ioError)
        #expect(noCode["kind"] as? String == "audit.repairNotApplied" && noCode["cause"] as? String == "code.noFreeCode")
        #expect(noCode["attempts"] as? Int == 64)
        // The words still say which: people read stderr.
        #expect(AuditError.repair(.incomplete(.qrCode(.encodingFailed(reason: "too long")))).localizedDescription
                .hasPrefix("repair applied to the store, but not every file is in place"))
        #expect(try ErrorDocumentTests.json(AuditError.scanStopped(reason: "cancelled"), status: .ioError)["kind"] as? String == "audit.scanStopped")
    }

    @Test func aMigrationStoppedByItsCodesReportsTheCause() throws {
        let noCode = try ErrorDocumentTests.json(MigrationError.codeGeneration(.noFreeCode(candidatesTried: 100)), status: .ioError)
        #expect(noCode["kind"] as? String == "code.noFreeCode" && noCode["attempts"] as? Int == 100)
        let qr = try ErrorDocumentTests.json(MigrationError.qrCode(.pngEncodingFailed(reason: "disk")), status: .ioError)
        #expect(qr["kind"] as? String == "qr.pngEncodingFailed")
        #expect(MigrationError.classify(QRCodeError.invalidScale(0)).localizedDescription.hasPrefix("migration stopped: cannot make a QR code"))
    }
}
