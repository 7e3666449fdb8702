import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport
@testable import TribeBoardCommands
import TribeBoardAudit
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

/// The toolkit's exit statuses (another module names a type the same).
typealias ExitStatus = TribeBoardCommands.ExitStatus

/// The `{"error": …}` document of `--json` (docs/errors.md, "Errors as JSON"), built in-process.
struct ErrorDocumentTests {
    /// The document exactly as `CommandContext.emit` writes it, decoded as a script reads it.
    static func json(_ error: any Error, status: ExitStatus) throws -> ErrorFieldsMirror {
        try Decoded.decode(ErrorDocumentMirror.self, fromText: try CommandContext.json(ErrorDocument(error, status: status))).error
    }

    /// The keys of the document's `error` object, after checking it is the document's only key.
    static func keys(_ error: any Error, status: ExitStatus) throws -> Set<String> {
        let text = try CommandContext.json(ErrorDocument(error, status: status))
        #expect(try Decoded.decode(JSONKeys.self, fromText: text).keys == ["error"], "one key at the top: \(text)")
        return try Decoded.decode(ErrorDocumentKeys.self, fromText: text).error.keys
    }

    @Test func aStoreThatIsALinkIsOneDocumentWithItsTypedFields() throws {
        let link = StoreError.notAFile(path: "s.sqlite", kind: .symbolicLink)
        #expect(try Self.keys(link, status: .ioError) == ["exitStatus", "status", "kind", "message", "path", "fileType"], "unset fields are left out")
        let error = try Self.json(link, status: .ioError)
        #expect(error.exitStatus == 74)
        #expect(error.status == "ioError")
        #expect(error.kind == "store.notAFile")
        #expect(error.path == "s.sqlite")
        #expect(error.fileType == "symbolicLink")
        #expect(error.message == link.localizedDescription)
    }

    /// A wrapper reports its cause: a schema problem met by the audit, after the retries.
    @Test func aWrappedErrorReportsItsCause() throws {
        let schema = CloudKitError.schema(.notQueryable(field: "code", recordType: "Family"), reason: "Field 'code' is not marked queryable")
        let error = try Self.json(AuditError.remote(.gaveUp(attempts: 3, last: schema)), status: .remoteConfiguration)
        #expect(error.kind == "cloudkit.schema.notQueryable")
        #expect(error.recordType == "Family" && error.field == "code")
        #expect(error.category == "configuration" && error.attempts == 3)
        #expect(error.exitStatus == 78 && error.status == "remoteConfiguration")
    }

    /// A number from the server that JSON cannot hold (or that is no wait at all) is left out
    /// rather than failing the document.
    @Test func aServersRetryAfterIsCheckedBeforeItIsPrinted() throws {
        for (retryAfter, expected) in [(Double.infinity, nil), (-1, nil), (.nan, nil), (30, 30.0)] as [(Double, Double?)] {
            let error = try Self.json(CloudKitError.service(code: .throttled, httpStatus: 503, reason: "slow down", retryAfter: retryAfter),
                                      status: .remoteUnavailable)
            #expect(error.retryAfterSeconds == expected, "\(retryAfter)")
            #expect(error.serverErrorCode == "THROTTLED" && error.httpStatus == 503)
        }
    }

    /// The typed fields never carry a family code or a key (the message is stderr's, already
    /// masked): the record id names the family, the setting names the option.
    @Test func noCodeOrKeyInTheTypedFields() throws {
        let cases: [(any Error, ExitStatus)] = [
            (SheetError.invalidCode(familyId: "F1", familyName: "Doe", reason: "QX7K2M-9 has 8 characters and a dash"), .dataError),
            (CloudKitConfigurationError.invalid(setting: "--key-id", value: "QX7K2M-9", expected: "a key id"), .remoteConfiguration),
        ]
        for (error, status) in cases {
            // Every field but the message, as the document prints it.
            var detail = ErrorDocument(error, status: status).error
            detail.message = ""
            let text = try CommandContext.json(detail)
            #expect(!text.contains("QX7K2M"), "\(text)")
        }
        #expect(try Self.json(cases[0].0, status: .dataError).recordId == "F1")
        #expect(try Self.json(cases[1].0, status: .remoteConfiguration).setting == "--key-id")
    }

    /// 73 is two statuses by command; the document names the one that happened.
    @Test func seventyThreeIsNamedByWhatHappened() throws {
        #expect(try Self.json(SyncLock.Failure.held(byPID: 42), status: .lockHeld).status == "lockHeld")
        #expect(try Self.json(SyncLock.Failure.held(byPID: 42), status: .lockHeld).pid == 42)
        #expect(try Self.json(SheetError.cannotCreate(path: "inv.pdf", reason: "read-only"), status: .cannotCreate).status == "cannotCreate")
    }

    /// One document a run: a report already printed (resync, audit or migrate ending 1 or 75, or
    /// `resync --release` naming an id that is not set aside) is the document; no error follows.
    @Test func aRunPrintsOneDocument() {
        let document = StandardOutputDocument()
        #expect(document.claim())
        #expect(!document.claim())
        #expect(!document.claim())
    }

    @Test func anErrorNoMappingKnowsIsStillADocument() throws {
        struct Strange: Error {}
        let error = try Self.json(Strange(), status: .ioError)
        #expect(error.kind == "unexpected" && error.exitStatus == 74)
    }

    /// The kinds table of docs/errors.md lists every `ErrorKind`, no other, in the enum's order.
    @Test func everyKindIsDocumentedInTheReadme() throws {
        let documented = try ReadmeTables.errorKinds()
        let kinds = ErrorKind.allCases.map(\.rawValue)
        #expect(Set(kinds).subtracting(documented).isEmpty, "not in docs/errors.md: \(Set(kinds).subtracting(documented).sorted())")
        #expect(Set(documented).subtracting(kinds).isEmpty, "in docs/errors.md, no such kind: \(Set(documented).subtracting(kinds).sorted())")
        #expect(documented == kinds, "docs/errors.md lists the kinds in ErrorKind's order")
    }

    /// Every kind is produced by some error the commands can meet (a sample of the catalogue), so
    /// a kind no error produces any more, or one an error names wrongly, fails here.
    @Test func everyKindHasASample() {
        let produced = Set(ErrorKindCatalogue.samples.map { ErrorDetail.of($0).kind })
        let never = ErrorKind.allCases.filter { !produced.contains($0) }
        #expect(never.isEmpty, "no sample of ErrorKindCatalogue produces \(never.map(\.rawValue))")
    }

    /// A kind's area is its name's first part, an `ErrorArea` (what `CommandExits` selects by).
    @Test func everyKindButUnexpectedHasAnArea() {
        let without = ErrorKind.allCases.filter { $0.area == nil }
        #expect(without == [.unexpected], "\(without)")
        let used = Set(ErrorKind.allCases.compactMap(\.area))
        #expect(Set(ErrorArea.allCases) == used, "areas no kind has: \(Set(ErrorArea.allCases).subtracting(used))")
    }
}

extension ReadmeTables {
    /// The first cell of every row of the table under "## Errors as JSON" in docs/errors.md.
    static func errorKinds() throws -> [String] {
        let lines = try String(contentsOfFile: page("errors.md"), encoding: .utf8).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let start = lines.firstIndex(of: "## Errors as JSON") else { return [] }
        var kinds: [String] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("| `") else { continue }
            kinds.append(String(line.dropFirst(3).prefix { $0 != "`" }))
        }
        return kinds
    }
}
