import TribeBoardCloudKit

/// One query of one record, filtered as the commands filter: whether the container's schema can
/// answer them. Doctor reports each probe (its remote schema checks); the whole-type reader asks
/// the code probe before it splits a family type by code.
package struct SchemaProbe: Sendable, Equatable {
    /// The field codes are filtered on: `code IN [...]` for the code check, prefixes for reads.
    package static let codeField = FamilyField.code.rawValue

    package let recordType: RecordType
    /// True: filtered on `code` (needs `code` QUERYABLE). False: unfiltered, which needs
    /// `___recordID` QUERYABLE.
    package let codeFilter: Bool

    package init(recordType: RecordType, codeFilter: Bool) {
        self.recordType = recordType
        self.codeFilter = codeFilter
    }

    package var query: CloudKitQuery {
        CloudKitQuery(
            recordType: recordType.name, filterBy: codeFilter ? [.equals(Self.codeField, "")] : nil)
    }

    /// Returns when the container answers the query; throws CloudKit's refusal otherwise.
    package func run(on client: CloudKitClient) async throws(CloudKitError) {
        _ = try await client.query(query, resultsLimit: 1)
    }
}

extension CloudKitError {
    /// The container cannot filter on the field (no index, or no such field): a read that wanted
    /// to split a type by it reads the type with one query instead.
    package var isMissingIndex: Bool {
        switch self {
        case .schema(.notQueryable, _), .schema(.missingField, _): return true
        default: return false
        }
    }
}
