import Foundation

/// The documented serverErrorCode values, kept open for codes Apple adds later.
package struct CloudKitServerErrorCode: RawRepresentable, Sendable, Hashable,
    CustomStringConvertible
{
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
    package var description: String { rawValue }

    package static let throttled = Self(rawValue: "THROTTLED")
    package static let tryAgainLater = Self(rawValue: "TRY_AGAIN_LATER")
    package static let internalError = Self(rawValue: "INTERNAL_ERROR")
    package static let conflict = Self(rawValue: "CONFLICT")
    package static let exists = Self(rawValue: "EXISTS")
    package static let authenticationFailed = Self(rawValue: "AUTHENTICATION_FAILED")
    package static let authenticationRequired = Self(rawValue: "AUTHENTICATION_REQUIRED")
    package static let accessDenied = Self(rawValue: "ACCESS_DENIED")
    package static let badRequest = Self(rawValue: "BAD_REQUEST")
    package static let notFound = Self(rawValue: "NOT_FOUND")
    package static let zoneNotFound = Self(rawValue: "ZONE_NOT_FOUND")
    package static let quotaExceeded = Self(rawValue: "QUOTA_EXCEEDED")
    package static let validatingReferenceError = Self(rawValue: "VALIDATING_REFERENCE_ERROR")
    package static let atomicError = Self(rawValue: "ATOMIC_ERROR")

    /// Every code Apple's Web Services reference lists (Error Codes).
    static let documented: Set<Self> = [
        .throttled, .tryAgainLater, .internalError, .conflict, .exists, .authenticationFailed,
        .authenticationRequired, .accessDenied, .badRequest, .notFound, .zoneNotFound,
        .quotaExceeded, .validatingReferenceError, .atomicError
    ]

    /// The seeds' distinction: what passes by itself, what a person must fix, what is about the
    /// data. A used-up quota needs a person (more storage, or records deleted) whichever record hit
    /// it.
    package var category: CloudKitError.Category {
        switch self {
        case .throttled, .tryAgainLater, .internalError: return .transient
        case .authenticationFailed, .authenticationRequired, .accessDenied, .zoneNotFound,
            .quotaExceeded:
            return .configuration
        default: return .data
        }
    }
}

/// The envelope CloudKit answers a failed request with.
struct CloudKitErrorEnvelope: Codable, Sendable, Equatable {
    package var uuid: String?
    package var serverErrorCode: String
    package var reason: String?
    package var retryAfter: Double?
    var redirectURL: String?

    package init(
        uuid: String?, serverErrorCode: String, reason: String?, retryAfter: Double?,
        redirectURL: String?
    ) {
        self.uuid = uuid
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.retryAfter = retryAfter
        self.redirectURL = redirectURL
    }
}

/// A request that did not succeed, classified as the seeds require.
package enum CloudKitError: Error, Sendable, Equatable, LocalizedError {
    package enum Category: String, Sendable, Encodable {
        /// Connection refused or reset, DNS, TLS, timeout: the network, not the data.
        case network
        /// The service asks to come back later (THROTTLED, TRY_AGAIN_LATER, INTERNAL_ERROR).
        case transient
        /// A person must fix the setup: key, clock, container, permissions.
        case configuration
        /// The request or the record is wrong; retrying the same thing will not help.
        case data
    }

    case network(reason: String)
    case service(
        code: CloudKitServerErrorCode, httpStatus: Int, reason: String, retryAfter: Double?)
    case unexpectedResponse(httpStatus: Int, detail: String)
    /// Retries ran out (attempts or time); carries the last error.
    indirect case gaveUp(attempts: Int, last: CloudKitError)
    /// The run's own time (`--max-duration`) was up before the request could be sent or answered.
    case outOfTime
    /// An answer longer than the client reads (`limit` bytes): not CloudKit's (its pages hold at
    /// most 200 records of at most 1 MB), so the base URL points elsewhere; retrying would only
    /// read as much again.
    case responseTooLarge(limit: Int)
    /// The container's schema lacks what the toolkit needs (a record type, a QUERYABLE index): a
    /// configuration problem no retry fixes. `reason` is CloudKit's own text.
    case schema(SchemaProblem, reason: String)

    /// What a request ends with when its task is cancelled mid-exchange or while it waits for a
    /// slot: a network failure of this run, not CloudKit's answer (nothing is known of the write).
    package static var cancelled: CloudKitError {
        .network(reason: "cancelled before CloudKit answered")
    }

    package enum SchemaProblem: Sendable, Equatable {
        case missingType(String)
        /// A type without a single index ("Type is not marked indexable: Family"): what CloudKit
        /// creates on a first write in development, and what early builds left behind.
        case notIndexable(recordType: String)
        /// A filter on a field the type does not have ("Did not find field: 'code' in type:
        /// 'Family'").
        case missingField(field: String, recordType: String)
        /// `recordType` is the queried type, when the client knows it (CloudKit's text omits it).
        case notQueryable(field: String, recordType: String?)
        /// A production container refused a type or field the development schema has not deployed.
        case notDeployed
    }

    package var category: Category {
        switch self {
        case .network: return .network
        case .service(let code, let status, _, _):
            // A code Apple does not list, sent with a 5xx or 429, is the service's trouble of the
            // moment; a whole request refused for any other reason (BAD_REQUEST, QUOTA_EXCEEDED...)
            // is refused again on every retry: a person must look (78, never "try later").
            if !CloudKitServerErrorCode.documented.contains(code)
                && (status >= 500 || status == 429)
            {
                return .transient
            }
            return code.category == .data ? .configuration : code.category
        // An answer that is not CloudKit's: a login page, a redirect or a missing endpoint means
        // the settings point somewhere else (78); anything else unusable (an empty or broken
        // body, a record without its name) is the server's problem today, worth a later try (75).
        case .unexpectedResponse(let status, _):
            return [401, 403, 404, 421].contains(status) || (300..<400).contains(status)
                ? .configuration : .transient
        case .gaveUp(_, let last): return last.category
        case .outOfTime: return .transient
        case .schema, .responseTooLarge: return .configuration
        }
    }

    /// The error's stable name for scripts (`cloudkit.network`, `cloudkit.schema.notQueryable`):
    /// the `kind` of the error document and of the reports' `stopKind`. Named after the case,
    /// never the message; after retries, the last error's.
    package var kind: String {
        switch self {
        case .network: return "cloudkit.network"
        case .service: return "cloudkit.service"
        case .unexpectedResponse: return "cloudkit.unexpectedResponse"
        case .gaveUp(_, let last): return last.kind
        case .outOfTime: return "cloudkit.outOfTime"
        case .schema(.missingType, _): return "cloudkit.schema.missingType"
        case .schema(.notQueryable, _): return "cloudkit.schema.notQueryable"
        case .schema(.notDeployed, _): return "cloudkit.schema.notDeployed"
        case .schema(.notIndexable, _): return "cloudkit.schema.notIndexable"
        case .schema(.missingField, _): return "cloudkit.schema.missingField"
        case .responseTooLarge: return "cloudkit.responseTooLarge"
        }
    }

    var isTransient: Bool { category == .network || category == .transient }

    /// The one reading of "the container has no such record type": the type CloudKit named.
    /// The client turns Apple's text into `.schema(.missingType)` as it arrives, so this is the
    /// only question callers ask.
    package var missingRecordType: String? {
        switch self {
        case .schema(.missingType(let type), _): return type
        case .gaveUp(_, let last): return last.missingRecordType
        default: return nil
        }
    }

    /// Reads CloudKit's BAD_REQUEST texts for a missing type ("Did not find record type: X"), a
    /// type without indexes ("Type is not marked indexable: X"), a missing field ("Did not find
    /// field: 'F' in type: 'X'") and a missing index ("Field 'F' is not marked queryable"), as
    /// Apple's servers word them.
    package static func schemaProblem(in reason: String) -> SchemaProblem? {
        if let range = reason.range(of: "Did not find record type: ") {
            let type = name(after: range, in: reason)
            return type.isEmpty ? nil : .missingType(type)
        }
        if let range = reason.range(of: "Type is not marked indexable: ") {
            let type = name(after: range, in: reason)
            return type.isEmpty ? nil : .notIndexable(recordType: type)
        }
        if reason.contains("Did not find field: ") {
            let quoted = reason.split(separator: "'", omittingEmptySubsequences: false)
            if quoted.count >= 5 {
                return .missingField(field: String(quoted[1]), recordType: String(quoted[3]))
            }
        }
        if reason.contains("not marked queryable") {
            let quoted = reason.split(separator: "'", omittingEmptySubsequences: false)
            return .notQueryable(
                field: quoted.count >= 3 ? String(quoted[1]) : "?", recordType: nil)
        }
        // Native CloudKit words it "Cannot create new type X in production schema"; a field the
        // same way. Web Services' exact text is not documented, so any mention of the production
        // schema in a BAD_REQUEST counts.
        if reason.localizedCaseInsensitiveContains("production schema") { return .notDeployed }
        return nil
    }

    private static func name(after range: Range<String.Index>, in reason: String) -> String {
        String(reason[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    /// The server answered, but not as CloudKit does (no JSON, no CloudKit error body, a record
    /// without its name).
    package var isUnusableAnswer: Bool {
        switch self {
        case .unexpectedResponse: return true
        case .gaveUp(_, let last): return last.isUnusableAnswer
        default: return false
        }
    }

    package var retryAfter: Double? {
        if case .service(_, _, _, let retryAfter) = self { return retryAfter }
        return nil
    }

    package var errorDescription: String? {
        switch self {
        case .network(let reason):
            return "CloudKit is unreachable (network: \(reason)); the work stays pending and can be retried"
        case .service(let code, let status, let reason, let retryAfter):
            let retry =
                RetryPolicy.usable(retryAfter, upTo: 86_400).map { "; retry after \(Int($0)) s" }
                ?? ""
            return "CloudKit answered \(code) (HTTP \(status)): \(reason)" + retry + advice(code)
        case .unexpectedResponse(let status, let detail):
            return "CloudKit answered HTTP \(status) with an unreadable body: \(detail)"
        case .gaveUp(let attempts, let last):
            return "gave up after \(attempts) attempts: \(last.localizedDescription)"
        case .outOfTime:
            return "the run's time (--max-duration) was up before CloudKit answered; the rest waits for the next run"
        case .schema(.missingType(let type), let reason):
            return "the container has no record type \(type) in this environment (CloudKit: \(reason)); "
                + "import the toolkit's schema: "
                + "`xcrun cktool import-schema --team-id TEAM --container-id CONTAINER "
                + "--environment development --file Templates/cloudkit-schema.ckdb`, "
                + "then deploy it to production in the CloudKit Console (Schema > Deploy Schema Changes)"
        case .schema(.notQueryable(let field, let recordType), let reason):
            let type = recordType ?? "the record type"
            // An unfiltered query needs the system field ___recordID, which CloudKit's text calls
            // recordName.
            let index =
                ["recordName", "___recordID"].contains(field) ? "recordName (___recordID)" : field
            return
                "\(type) has no QUERYABLE index on \(index) (CloudKit: \(reason)); add it in the CloudKit Console "
                + "(Schema > Indexes > \(type) > Add Index > \(index) > Queryable) or import Templates/cloudkit-schema.ckdb with "
                + "`xcrun cktool import-schema`, then deploy it to production (Schema > Deploy Schema Changes)"
        case .schema(.notIndexable(let type), let reason):
            return "\(type) has no index at all (CloudKit: \(reason)), as a type CloudKit made on its first write; add the QUERYABLE "
                + "indexes of Templates/cloudkit-schema.ckdb in the CloudKit Console (Schema > Indexes > \(type) > Add Index: recordName "
                + "(___recordID) and the queried fields, Queryable) or import that file with `xcrun cktool import-schema`, "
                + "then deploy it to production (Schema > Deploy Schema Changes)"
        case .schema(.missingField(let field, let type), let reason):
            return "\(type) has no field \(field) in this environment (CloudKit: \(reason)); import Templates/cloudkit-schema.ckdb: "
                + "`xcrun cktool import-schema --team-id TEAM --container-id CONTAINER "
                + "--environment development --file Templates/cloudkit-schema.ckdb` "
                + "(or add the field and its QUERYABLE index in the CloudKit Console, Schema > Record Types > \(type)), "
                + "then deploy it to production (Schema > Deploy Schema Changes)"
        case .responseTooLarge(let limit):
            return "the server's answer is longer than \(limit / 1_048_576) MiB, more than CloudKit sends for one request; "
                + "reading stopped there: check --ck-base-url (a proxy or another service answers?)"
        case .schema(.notDeployed, let reason):
            return "the production schema lacks what the toolkit writes (CloudKit: \(reason)); deploy the development schema "
                + "in the CloudKit Console (Schema > Deploy Schema Changes) after importing Templates/cloudkit-schema.ckdb into development"
        }
    }

    private func advice(_ code: CloudKitServerErrorCode) -> String {
        switch code {
        case .authenticationFailed:
            return " (check the key id, that the key file is the one registered in the CloudKit Dashboard, "
                + "and the machine's clock)"
        case .authenticationRequired:
            return " (this database needs a user's API token and web auth token)"
        case .accessDenied: return " (the schema's security roles do not allow this write)"
        case .zoneNotFound: return " (the zone does not exist in this container and environment)"
        case .quotaExceeded:
            return " (the container's quota is used up: raise it or delete records in the CloudKit Console; "
                + "waiting does not free it)"
        case .badRequest:
            return " (CloudKit refuses this request as it is: a retry would send the same)"
        default: return ""
        }
    }
}
